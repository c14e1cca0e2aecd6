import { defineConfig } from "tsup";

export default defineConfig({
  entry: [
    "src/index.ts",
    "src/tables.ts",
    "src/protocol.ts",
    "src/testing.ts",
    "src/internal.ts",
    "src/schemas.ts",
    "src/veo.ts",
  ],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
});
