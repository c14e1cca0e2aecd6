import { sharedConfig } from "../../vitest.shared";

// One module graph per worker: every file imports the whole gateway, and re-importing it per file
// was over half of the suite's CPU. Each test builds its own stack (no module-level state is
// shared); shuffled file orders run green (`--sequence.shuffle.files`). Three files at a time:
// they wait on sockets and child processes far more than on a core.
export default sharedConfig({ isolate: false, maxWorkers: 3 });
