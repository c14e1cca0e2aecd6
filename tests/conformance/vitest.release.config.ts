import { defineConfig, mergeConfig } from "vitest/config";
import { sharedConfig } from "../../vitest.shared";

// `pnpm test:release`: the release flow against a local registry (needs built packages). Each
// step is one publish or install of nine packages: minutes, not seconds, on a loaded machine.
export default mergeConfig(
  sharedConfig(),
  defineConfig({
    test: { include: ["src/**/*.e2e.ts"], testTimeout: 600_000, hookTimeout: 120_000 },
  }),
);
