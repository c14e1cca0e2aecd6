import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/testing.ts", "src/schemas.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
  // eventsource-parser ships ESM only; inlining it lets the CJS build load on every Node >= 20
  // (require of ESM arrived in 20.19), and keeps both builds free of runtime imports.
  noExternal: ["eventsource-parser"],
});
