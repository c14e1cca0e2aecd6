import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packagesDir, repoRoot } from "./packages.js";

// scripts/new-package.mjs run on a copy of the repository's skeleton (the files it reads and
// edits), so the checkout is never touched; the copy's node_modules is the repository's own.
const cacheDir = fileURLToPath(new URL("../node_modules/.cache/", import.meta.url));
const name = "scaffold-check";
let copy = "";
let generated = "";

type Manifest = Record<string, unknown> & {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
};
const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as Manifest;
const real = (pkg: string) => readJson(join(packagesDir, pkg, "package.json"));
const file = (path: string) => readFileSync(join(generated, path), "utf8");

beforeAll(() => {
  mkdirSync(cacheDir, { recursive: true });
  copy = mkdtempSync(join(cacheDir, "new-package-"));
  for (const path of [
    "LICENSE",
    ".gitignore",
    "biome.json",
    "tsconfig.base.json",
    "vitest.shared.ts",
    "scripts/test/fast-check-seed.ts",
    "scripts/test/compile-cache.ts",
    "scripts/new-package.mjs",
    "tests/conformance/package.json",
    "tests/conformance/src/bundle-size.test.ts",
    ...readdirSync(packagesDir).map((p) => `packages/${p}/package.json`),
  ]) {
    cpSync(join(repoRoot, path), join(copy, path));
  }
  symlinkSync(join(repoRoot, "node_modules"), join(copy, "node_modules"), "dir");
  execFileSync(
    process.execPath,
    [
      join(copy, "scripts/new-package.mjs"),
      name,
      "A package made by the scaffold test.",
      "zod",
      "@interlingua/errors",
    ],
    { cwd: cacheDir, encoding: "utf8" },
  );
  generated = join(copy, "packages", name);
});
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("scripts/new-package.mjs", () => {
  it("writes the files a real package has", () => {
    const files = readdirSync(generated, { recursive: true, encoding: "utf8" }).sort();
    expect(files).toEqual(
      [
        "LICENSE",
        "README.md",
        "package.json",
        "src",
        "src/index.test.ts",
        "src/index.ts",
        "src/testing.ts",
        "tsconfig.json",
        "tsconfig.test.json",
        "tsup.config.ts",
        "vitest.config.ts",
      ].sort(),
    );
    for (const same of ["LICENSE", "tsconfig.json", "tsconfig.test.json", "vitest.config.ts"]) {
      expect(file(same), same).toBe(readFileSync(join(packagesDir, "sse", same), "utf8"));
    }
    // fmt-messages' build, entry points aside (a format package adds `/internal`, `/schemas`).
    const entries = /entry: \[[^\]]*\]/;
    expect(file("tsup.config.ts")).toMatch(/entry: \["src\/index.ts", "src\/testing.ts"\]/);
    expect(file("tsup.config.ts").replace(entries, "")).toBe(
      readFileSync(join(packagesDir, "fmt-messages", "tsup.config.ts"), "utf8").replace(
        entries,
        "",
      ),
    );
  });

  it("writes package.json with the real packages' fields, in their order", () => {
    const manifest = readJson(join(generated, "package.json"));
    // fmt-messages and errors have a /testing entry and fast-check as an optional peer, as here.
    expect(Object.keys(manifest)).toEqual(Object.keys(real("fmt-messages")));
    expect(Object.keys(manifest)).toEqual(Object.keys(real("errors")));
    const sse = real("sse");
    for (const key of [
      "version",
      "license",
      "type",
      "sideEffects",
      "main",
      "module",
      "types",
      "engines",
      "publishConfig",
      "scripts",
    ]) {
      expect(manifest[key], key).toEqual(sse[key]);
    }
    // sse adds the notices of the code its build inlines; a new package inlines nothing.
    expect(manifest.files).toEqual(real("fmt-messages").files);
    // The entries every package has; a real one may add subpaths (`./media`, `./internal`).
    const exports = sse.exports as Record<string, unknown>;
    expect(manifest.exports).toEqual({
      ".": exports["."],
      "./testing": exports["./testing"],
      "./package.json": exports["./package.json"],
    });
    const typesVersions = sse.typesVersions as { "*": Record<string, unknown> };
    expect(manifest.typesVersions).toEqual({ "*": { testing: typesVersions["*"].testing } });
    const messages = real("fmt-messages");
    expect(manifest.peerDependencies).toEqual(messages.peerDependencies);
    expect(manifest.peerDependenciesMeta).toEqual(messages.peerDependenciesMeta);
    expect(manifest.devDependencies).toEqual({
      "fast-check": messages.devDependencies?.["fast-check"],
    });
    // Ranges pinned as the other packages pin them: workspace:^ inside, the shared range outside.
    expect(manifest.dependencies).toEqual({
      zod: messages.dependencies?.zod,
      "@interlingua/errors": "workspace:^",
    });
    expect(manifest.name).toBe(`@interlingua/${name}`);
    expect(manifest.repository).toEqual({
      ...(sse.repository as object),
      directory: `packages/${name}`,
    });
    expect(manifest.homepage).toBe(String(sse.homepage).replace("/sse#", `/${name}#`));
    expect(manifest.bugs).toEqual(sse.bugs);
  });

  it("writes a README with Usage (a runnable ts block), API and Loss table", () => {
    const readme = file("README.md");
    expect(readme.startsWith(`# @interlingua/${name}\n`)).toBe(true);
    const headings = readme.split("\n").filter((line) => line.startsWith("## "));
    expect(headings).toEqual(["## Usage", "## API", "## Loss table"]);
    expect(readme).toMatch(/## Usage\n\n```ts\n[^`]*from "@interlingua\/scaffold-check";/);
    expect(readme).toContain("| Field | Toward | What happens |");
  });

  it("registers the package where every real one is, and adds a changeset", () => {
    const conformance = readJson(join(copy, "tests/conformance/package.json"));
    const names = Object.keys(conformance.dependencies ?? {});
    expect(names).toContain(`@interlingua/${name}`);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    expect(readFileSync(join(copy, "tests/conformance/src/bundle-size.test.ts"), "utf8")).toContain(
      `"@interlingua/${name}": 40 * KB,\n};`,
    );
    expect(readFileSync(join(copy, `.changeset/${name}-package.md`), "utf8")).toMatch(
      new RegExp(`^---\\n"@interlingua/${name}": minor\\n---\\n`),
    );
  });

  it("refuses a name that is taken or not a folder name", () => {
    const run = (folder: string) => () =>
      execFileSync(process.execPath, [join(copy, "scripts/new-package.mjs"), folder, "x"], {
        stdio: "pipe",
      });
    expect(run(name)).toThrow(/exists/);
    expect(run("Bad_Name")).toThrow(/lower-case/);
  });

  it("passes its own lint, typecheck and test", () => {
    const bin = (tool: string) => join(repoRoot, "node_modules", ".bin", tool);
    const inPackage = { cwd: generated, encoding: "utf8", stdio: "pipe" } as const;
    execFileSync(bin("biome"), ["check", "."], inPackage);
    // The same compiler as every workspace's `typecheck` script: TypeScript 7 (native).
    const tsc = join(repoRoot, "node_modules", "typescript-7", "bin", "tsc");
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.json"], inPackage);
    execFileSync(process.execPath, [tsc, "-p", "tsconfig.test.json"], inPackage);
    expect(execFileSync(bin("vitest"), ["run"], inPackage)).toMatch(/1 passed/);
  });
});
