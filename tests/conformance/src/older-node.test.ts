import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { publishablePackages, subpaths } from "./packages.js";

// The built packages load on the machine's own Node too (the published packages support Node 20
// and up, the tests run on the pinned 24), every entry both ways.
const conformanceDir = fileURLToPath(new URL("..", import.meta.url));
const specifier = (name: string, subpath: string) =>
  subpath === "." ? name : `${name}/${subpath.slice(2)}`;

/** The machine's own Node (20 here) when it differs from the one running the tests (24). */
const systemNode = ["/usr/bin/node", "/usr/local/bin/node"].find(
  (p) => existsSync(p) && execFileSync(p, ["--version"]).toString().trim() !== process.version,
);

const packages = publishablePackages();
/** Per entry: the number of names its ESM exposes, or why it failed to load either way. */
let loaded: Record<string, number | string> = {};

beforeAll(() => {
  if (systemNode === undefined) return;
  // One Node process for every package's entries: a process per package loaded the shared
  // dependencies (zod, fast-check, core-types' /testing arbitraries) again each time, about
  // 3 s of CPU apiece. Each entry is imported, then required, on its own, so one that fails is
  // named in its package's test.
  const ids = packages.flatMap((pkg) => subpaths(pkg).map((s) => specifier(pkg.name, s)));
  const script = `(async () => {
    const out = {};
    for (const id of ${JSON.stringify(ids)}) {
      try {
        const m = await import(id);
        require(id);
        out[id] = Object.keys(m).length;
      } catch (error) {
        out[id] = String(error && error.stack || error);
      }
    }
    console.log(JSON.stringify(out));
  })()`;
  const out = execFileSync(systemNode, ["-e", script], { cwd: conformanceDir, encoding: "utf8" });
  loaded = JSON.parse(out.trim().split("\n").pop()!);
}, 120_000);

describe.each(packages)("$name on the machine's older Node", (pkg) => {
  it.runIf(systemNode !== undefined)("loads on the machine's older Node, both ways", () => {
    const ids = subpaths(pkg).map((subpath) => specifier(pkg.name, subpath));
    const counts = Object.fromEntries(ids.map((id) => [id, loaded[id]]));
    for (const id of ids) {
      expect(typeof counts[id], `${id}: ${counts[id]}`).toBe("number");
      expect(counts[id], id).toBeGreaterThan(0);
    }
  });
});
