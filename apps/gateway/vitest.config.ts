import { sharedConfig } from "../../vitest.shared";

// Integration tests keep per-file isolation: they start servers and hold process-wide state.
// Three files at a time: they wait on sockets and child processes far more than on a core.
export default sharedConfig({ maxWorkers: 3 });
