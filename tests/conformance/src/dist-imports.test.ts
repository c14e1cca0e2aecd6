import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { publishablePackages, subpaths } from "./packages.js";

const require = createRequire(import.meta.url);
const conformanceDir = fileURLToPath(new URL("..", import.meta.url));
const specifier = (name: string, subpath: string) =>
  subpath === "." ? name : `${name}/${subpath.slice(2)}`;

/** The machine's own Node (20 here) when it differs from the one running the tests (24). */
const systemNode = ["/usr/bin/node", "/usr/local/bin/node"].find(
  (p) => existsSync(p) && execFileSync(p, ["--version"]).toString().trim() !== process.version,
);

describe.each(publishablePackages())("$name builds to importable ESM and CJS", (pkg) => {
  it.each(subpaths(pkg))("%s: ESM and CJS expose the same names", async (subpath) => {
    const id = specifier(pkg.name, subpath);
    const esm = await import(id);
    const cjs = require(id);
    const esmNames = Object.keys(esm)
      .filter((k) => k !== "default" && k !== "module.exports")
      .sort();
    expect(esmNames.length).toBeGreaterThan(0);
    expect(Object.keys(cjs).sort()).toEqual(esmNames);
  });

  it.runIf(systemNode !== undefined)("loads on the machine's older Node, both ways", () => {
    // One process for all of a package's entries: a Node start per entry was most of this test.
    const ids = subpaths(pkg).map((subpath) => specifier(pkg.name, subpath));
    const script = `Promise.all(${JSON.stringify(ids)}.map(async (id) => {
      const m = await import(id);
      require(id);
      return Object.keys(m).length;
    })).then((counts) => console.log(JSON.stringify(counts)))`;
    const out = execFileSync(systemNode!, ["-e", script], {
      cwd: conformanceDir,
      encoding: "utf8",
    });
    const counts = JSON.parse(out.trim()) as number[];
    expect(counts).toHaveLength(ids.length);
    for (const count of counts) expect(count).toBeGreaterThan(0);
  });

  it("bundles for a browser with no Node built-ins", async () => {
    const entries = subpaths(pkg).map((s) => specifier(pkg.name, s));
    const result = await build({
      stdin: {
        contents: entries.map((e, i) => `export * as m${i} from ${JSON.stringify(e)};`).join("\n"),
        resolveDir: pkg.dir,
      },
      bundle: true,
      platform: "browser",
      format: "esm",
      write: false,
      logLevel: "silent",
      external: ["fast-check"],
    });
    expect(result.errors).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toMatch(
      /\brequire\(["'](node:)?(fs|path|crypto|http|stream|buffer)["']\)/,
    );
  });
});
