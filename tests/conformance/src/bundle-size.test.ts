import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { publishablePackages, subpaths } from "./packages.js";

// What a browser user pays for each entry point, minified and gzipped with everything it pulls
// in (zod included). zod must stay tree-shakable: `import * as z from "zod"`, never `{ z }`,
// which drags in all of zod (~95 kB gzip) on its own.
const KB = 1024; // kB here is 1024 bytes; every budget also holds at 1000.
const budgets: Record<string, number> = {
  "@interlingua/fmt-chat": 50 * KB,
  "@interlingua/fmt-messages": 50 * KB,
  // Exact tool-argument numbers and code execution (issue 26) took it just past 50 kB.
  "@interlingua/fmt-native": 52 * KB,
  "@interlingua/fmt-responses": 50 * KB,
  "@interlingua/sse": 10 * KB,
  "@interlingua/core-types": 40 * KB,
  "@interlingua/errors": 40 * KB,
  "@interlingua/cache-control": 50 * KB,
  "@interlingua/tasks": 40 * KB,
};

const specifier = (name: string, subpath: string) =>
  subpath === "." ? name : `${name}/${subpath.slice(2)}`;

/** Bytes of `import * from id`, bundled for a browser, minified, then gzipped. */
async function minGzip(id: string, resolveDir: string): Promise<number> {
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(id)};`, resolveDir },
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    write: false,
    logLevel: "silent",
  });
  return gzipSync(result.outputFiles[0]!.contents, { level: 9 }).length;
}

// The /testing subpaths are test helpers built on fast-check, not shipped to browsers.
const entries = publishablePackages().flatMap((pkg) =>
  subpaths(pkg)
    .filter((s) => s !== "./testing")
    .map((s) => ({ pkg, id: specifier(pkg.name, s) })),
);

describe("browser bundle sizes (min+gzip)", () => {
  it("every publishable package has a budget", () => {
    expect(
      publishablePackages()
        .map((p) => p.name)
        .filter((n) => !(n in budgets)),
    ).toEqual([]);
  });

  it.each(entries)("$id stays within its package's budget", async ({ pkg, id }) => {
    const size = await minGzip(id, pkg.dir);
    const budget = budgets[pkg.name] ?? 0;
    console.log(`${id}: ${(size / KB).toFixed(1)} kB min+gzip (budget ${budget / KB} kB)`);
    expect(size).toBeLessThanOrEqual(budget);
  });
});
