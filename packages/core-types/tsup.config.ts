import { defineConfig } from "tsup";

const shared = { sourcemap: true, target: "es2022", platform: "neutral" } as const;

export default defineConfig([
  {
    ...shared,
    entry: ["src/index.ts", "src/testing.ts", "src/push-stream.ts"],
    format: ["esm", "cjs"],
    dts: true,
    // dist/esm belongs to the build below.
    clean: ["!esm/**"],
  },
  {
    // ESM one file per module, as in src: with `sideEffects: false` a bundler then drops the
    // modules a user does not import. One bundled file would keep every top-level zod schema,
    // as a bundler cannot prove a `z.object(...)` call pure.
    ...shared,
    entry: ["src/**/*.ts", "!src/**/*.test.ts"],
    format: ["esm"],
    bundle: false,
    outDir: "dist/esm",
    clean: true,
  },
]);
