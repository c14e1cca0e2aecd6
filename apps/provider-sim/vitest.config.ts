import { sharedConfig } from "../../vitest.shared";

// Integration tests keep per-file isolation: they start servers and hold process-wide state.
export default sharedConfig();
