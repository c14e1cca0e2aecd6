import { defineConfig } from "vitest/config";

// These tests import built bundles, spawn the machine's own Node and bundle for a browser; on a
// loaded 2-core CI machine a single import of fast-check can take seconds.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } });
