import { sharedConfig } from "../../vitest.shared";

export default sharedConfig({ isolate: false, randomRun: true });
