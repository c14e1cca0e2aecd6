import { createRequire } from "node:module";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { publishablePackages, subpaths } from "./packages.js";

const require = createRequire(import.meta.url);
const specifier = (name: string, subpath: string) =>
  subpath === "." ? name : `${name}/${subpath.slice(2)}`;

// Loading on the machine's older Node is older-node.test.ts: one Node process for every package.

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
