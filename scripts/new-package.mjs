// Scaffolds packages/<name> with the shape every publishable package shares: `.` and `./testing`
// entries (ESM, CJS, types, node10 typesVersions), the repository metadata, LICENSE, a README with
// the Usage, API and Loss table sections, a property test, and dependency ranges the repo uses.
// It also does what every real package has had done for it: a dependency of tests/conformance
// (which imports each package by name), a browser-bundle budget, and a changeset.
// Usage: node scripts/new-package.mjs <name> "<description>" [dep ...]   (from any folder)
// Then: pnpm install, fill in the README and the changeset.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = "https://github.com/interlingua/interlingua";
// The checkout this script sits in, so it works from any working directory (and on a copy).
const root = fileURLToPath(new URL("..", import.meta.url));
const at = (path) => join(root, path);
const [name, description, ...deps] = process.argv.slice(2);
if (!name || !description) throw new Error("usage: new-package <name> <description> [deps]");
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) {
  throw new Error(`${name}: a package folder name is lower-case words joined by "-"`);
}
const dir = `packages/${name}`;
if (existsSync(at(dir))) throw new Error(`${dir} exists`);

const manifests = readdirSync(at("packages"))
  .filter((p) => existsSync(at(`packages/${p}/package.json`)))
  .map((p) => JSON.parse(readFileSync(at(`packages/${p}/package.json`), "utf8")));
/** The range the other packages already pin for a dependency, so one version is installed. */
function rangeOf(dep) {
  if (manifests.some((m) => m.name === dep)) return "workspace:^";
  for (const m of manifests) {
    const range = m.dependencies?.[dep] ?? m.devDependencies?.[dep] ?? m.peerDependencies?.[dep];
    if (range && !range.startsWith("workspace:")) return range;
  }
  throw new Error(
    `${dep}: no package pins it yet; add it with pnpm --filter @interlingua/${name} add`,
  );
}

mkdirSync(at(`${dir}/src`), { recursive: true });
const write = (file, value) =>
  writeFileSync(
    at(`${dir}/${file}`),
    typeof value === "string" ? value : `${JSON.stringify(value, null, 2)}\n`,
  );

const entry = (sub) => ({
  import: { types: `./dist/${sub}.d.ts`, default: `./dist/${sub}.js` },
  require: { types: `./dist/${sub}.d.cts`, default: `./dist/${sub}.cjs` },
});
const fastCheck = rangeOf("fast-check");
write("package.json", {
  name: `@interlingua/${name}`,
  version: "0.0.0",
  description,
  license: "Apache-2.0",
  repository: { type: "git", url: `git+${REPO}.git`, directory: dir },
  homepage: `${REPO}/tree/main/${dir}#readme`,
  bugs: { url: `${REPO}/issues` },
  type: "module",
  sideEffects: false,
  main: "./dist/index.cjs",
  module: "./dist/index.js",
  types: "./dist/index.d.ts",
  exports: {
    ".": entry("index"),
    "./testing": entry("testing"),
    "./package.json": "./package.json",
  },
  // node10 resolution (no `exports`) finds the subpath's types here.
  typesVersions: { "*": { testing: ["./dist/testing.d.cts"] } },
  files: ["dist", "README.md", "LICENSE", "CHANGELOG.md"],
  engines: { node: ">=20" },
  publishConfig: { access: "public" },
  scripts: {
    build: "tsup",
    typecheck: "node ../../node_modules/typescript-7/bin/tsc -p tsconfig.test.json",
    lint: "biome check .",
    test: "vitest run",
  },
  dependencies: Object.fromEntries(deps.map((d) => [d, rangeOf(d)])),
  devDependencies: { "fast-check": fastCheck },
  // Only the `/testing` entry imports fast-check.
  peerDependencies: { "fast-check": fastCheck },
  peerDependenciesMeta: { "fast-check": { optional: true } },
});
copyFileSync(at("LICENSE"), at(`${dir}/LICENSE`));
// Written as Biome formats them (short arrays on one line), like the other packages' files.
write(
  "tsconfig.json",
  `{
  "extends": "../../tsconfig.base.json",
  "include": ["src"],
  "exclude": ["src/**/*.test.ts", "src/**/*.bench.ts"]
}
`,
);
write(
  "tsconfig.test.json",
  `{
  "extends": "../../tsconfig.base.json",
  "compilerOptions": {
    "types": ["node"]
  },
  "include": ["src", "test"]
}
`,
);
write(
  "vitest.config.ts",
  `import { sharedConfig } from "../../vitest.shared";

export default sharedConfig({ isolate: false, randomRun: true });
`,
);
write(
  "tsup.config.ts",
  `import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/testing.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "es2022",
  platform: "neutral",
});
`,
);
write(
  "README.md",
  `# @interlingua/${name}

${description}

Pure: no \`node:\` imports, no I/O; runs in Node, browsers and Workers.

## Usage

\`\`\`ts
import { packageName } from "@interlingua/${name}";

console.log(packageName);
\`\`\`

## API

| Export | What it does |
|---|---|
| \`packageName\` | the package's name (replace with the real exports) |

\`@interlingua/${name}/testing\` holds fast-check arbitraries (install \`fast-check\` to use it).

## Loss table

What a conversion drops or approximates, field by field (\`x-interlingua-warnings\` names them).

| Field | Toward | What happens |
|---|---|---|
`,
);
write(
  "src/index.ts",
  `/** The package's name; replace with its first real module. */
export const packageName = "@interlingua/${name}";
`,
);
write(
  "src/testing.ts",
  `import * as fc from "fast-check";
import { packageName } from "./index.js";

/** Arbitraries for tests here and in the packages that use this one. */
export const arbitraryPackageName = (): fc.Arbitrary<string> => fc.constant(packageName);
`,
);
write(
  "src/index.test.ts",
  `import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { packageName } from "./index.js";
import { arbitraryPackageName } from "./testing.js";

describe("@interlingua/${name}", () => {
  it("names itself", () => {
    fc.assert(fc.property(arbitraryPackageName(), (value) => value === packageName));
    expect(packageName).toBe("@interlingua/${name}");
  });
});
`,
);

// tests/conformance imports every package by name (ESM, CJS, Node 20, a browser bundle, README
// examples), so the new one must be its dependency too, kept in name order like the rest.
const conformance = at("tests/conformance/package.json");
if (existsSync(conformance)) {
  const manifest = JSON.parse(readFileSync(conformance, "utf8"));
  const entries = { ...manifest.dependencies, [`@interlingua/${name}`]: "workspace:^" };
  manifest.dependencies = Object.fromEntries(
    Object.entries(entries).sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(conformance, `${JSON.stringify(manifest, null, 2)}\n`);
}
// Every publishable package has a browser-bundle budget; 40 kB is what the non-format ones get.
const bundleSize = at("tests/conformance/src/bundle-size.test.ts");
const budgetsEnd = /(const budgets: Record<string, number> = \{\n(?:.*\n)*?)\};/;
let budgetAdded = false;
if (existsSync(bundleSize)) {
  const text = readFileSync(bundleSize, "utf8");
  if (budgetsEnd.test(text)) {
    writeFileSync(bundleSize, text.replace(budgetsEnd, `$1  "@interlingua/${name}": 40 * KB,\n};`));
    budgetAdded = true;
  }
}
// A new package is a user-visible change: it is released as a minor of its own.
mkdirSync(at(".changeset"), { recursive: true });
writeFileSync(
  at(`.changeset/${name}-package.md`),
  `---
"@interlingua/${name}": minor
---

New package \`@interlingua/${name}\`: ${description}
`,
);
console.log(
  [
    `${dir} created, with .changeset/${name}-package.md and a tests/conformance dependency.`,
    budgetAdded
      ? "Its browser budget is 40 kB in tests/conformance/src/bundle-size.test.ts; adjust it."
      : "Add its browser budget to tests/conformance/src/bundle-size.test.ts.",
    "Next: pnpm install, then fill in the README (Usage, API, Loss table) and the changeset.",
  ].join("\n"),
);
