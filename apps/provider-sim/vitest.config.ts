import { defineConfig } from "vitest/config";

// The CLI test starts a fresh Node process loading the simulator: well under a second alone, over
// 5 s (vitest's default) while CI runs every package's tests at once on two cores.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } });
