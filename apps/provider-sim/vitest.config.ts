import { sharedConfig } from "../../vitest.shared";

// One module graph per worker: each test starts its own simulator, so files share no state, and
// re-importing per file was two thirds of the suite's CPU. Shuffled file orders run green.
export default sharedConfig({ isolate: false });
