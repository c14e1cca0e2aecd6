import { defineConfig } from "vitest/config";

// Integration tests start the gateway and the simulator and push hundreds of calls through real
// HTTP; on a 2-core CI machine running every package's tests at once a 200-call test took over
// vitest's default 5 s. Every loop in them is bounded; this only bounds the wait.
export default defineConfig({ test: { testTimeout: 60_000, hookTimeout: 60_000 } });
