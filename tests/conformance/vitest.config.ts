import { sharedConfig } from "../../vitest.shared";

// One module graph per worker: the files read packages and start child processes of their own;
// none keeps state in a module another file reads. Shuffled file orders run green.
export default sharedConfig({ isolate: false });
