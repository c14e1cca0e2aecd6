import { defineConfig } from "vitest/config";

// `pnpm test:release`: the release flow against a local registry (slow; needs built packages).
export default defineConfig({
  test: { include: ["src/**/*.e2e.ts"], testTimeout: 120_000, hookTimeout: 60_000 },
});
