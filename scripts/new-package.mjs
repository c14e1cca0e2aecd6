// Scaffolds packages/<name> with the shape every publishable package shares.
// Usage: node scripts/new-package.mjs <name> "<description>" [dep ...]
import { existsSync, mkdirSync, writeFileSync } from "node:fs";

const [name, description, ...deps] = process.argv.slice(2);
if (!name || !description) throw new Error("usage: new-package <name> <description> [deps]");
const dir = `packages/${name}`;
if (existsSync(dir)) throw new Error(`${dir} exists`);
mkdirSync(`${dir}/src`, { recursive: true });
const write = (file, value) =>
  writeFileSync(
    `${dir}/${file}`,
    typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`,
  );

const entry = (sub) => ({
  import: { types: `./dist/${sub}.d.ts`, default: `./dist/${sub}.js` },
  require: { types: `./dist/${sub}.d.cts`, default: `./dist/${sub}.cjs` },
});
write("package.json", {
  name: `@interlingua/${name}`,
  version: "0.1.0",
  description,
  license: "Apache-2.0",
  type: "module",
  sideEffects: false,
  main: "./dist/index.cjs",
  module: "./dist/index.js",
  types: "./dist/index.d.ts",
  exports: { ".": entry("index"), "./package.json": "./package.json" },
  files: ["dist", "README.md"],
  engines: { node: ">=20" },
  publishConfig: { access: "public" },
  scripts: {
    build: "tsup",
    typecheck: "tsc -p tsconfig.json && tsc -p tsconfig.test.json",
    lint: "biome check .",
    test: "vitest run",
  },
  dependencies: Object.fromEntries(
    deps.map((d) => [d, d.startsWith("@interlingua/") ? "workspace:^" : "*"]),
  ),
});
write("tsconfig.json", {
  extends: "../../tsconfig.base.json",
  include: ["src"],
  exclude: ["src/**/*.test.ts", "src/**/*.bench.ts"],
});
write("tsconfig.test.json", {
  extends: "../../tsconfig.base.json",
  compilerOptions: { types: ["node"] },
  include: ["src", "test"],
});
write(
  "tsup.config.ts",
  `import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
});
`,
);
write("README.md", `# @interlingua/${name}\n\n${description}\n`);
write("src/index.ts", "export {};\n");
