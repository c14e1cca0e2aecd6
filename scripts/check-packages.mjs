#!/usr/bin/env node
// Packs every public package under packages/ exactly as `pnpm publish` would (workspace:
// ranges rewritten, only `files` included), then lints each tarball with publint --strict and
// checks its types under every module resolution with @arethetypeswrong/cli (node10 included,
// which is what `typesVersions` is for), and checks that inlined third-party code ships its
// notices. Run after `pnpm build`; exits non-zero on any problem.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inlinedPackages, noticeText } from "./third-party-notices.mjs";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
const bin = (name) => join(root, "node_modules", ".bin", name);

const packages = readdirSync(join(root, "packages"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => join(root, "packages", d.name))
  .filter((dir) => {
    try {
      return !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).private;
    } catch {
      return false;
    }
  });

const out = mkdtempSync(join(tmpdir(), "interlingua-pack-"));

/** Runs a command; resolves to its combined output and whether it exited 0. */
async function attempt(file, args, cwd) {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, maxBuffer: 16 << 20 });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    return { ok: false, output: `${error.stdout ?? ""}${error.stderr ?? ""}${error.message}` };
  }
}

async function check(dir) {
  const packed = await attempt("pnpm", ["pack", "--pack-destination", out], dir);
  if (!packed.ok) return { dir, ok: false, report: [packed.output] };
  const tarball = packed.output.trim().split("\n").pop();
  const [publint, attw] = await Promise.all([
    attempt(bin("publint"), ["run", tarball, "--strict"], root),
    attempt(bin("attw"), [tarball, "--format", "ascii", "--no-emoji", "--no-color"], root),
  ]);
  const notices = await checkNotices(dir, tarball);
  const report = [!publint.ok && publint.output, !attw.ok && attw.output, notices].filter(Boolean);
  const ok = publint.ok && attw.ok && notices === undefined;
  return { dir, tarball, publint: publint.ok, attw: attw.ok, notices: !notices, ok, report };
}

/** Code the build inlined ships with its licence: the tarball holds the current notices. */
async function checkNotices(dir, tarball) {
  const names = inlinedPackages(dir);
  if (names.length === 0) return undefined;
  const shipped = await attempt("tar", ["-xOzf", tarball, "package/THIRD_PARTY_NOTICES.md"], root);
  if (!shipped.ok)
    return `the tarball inlines ${names.join(", ")} but has no THIRD_PARTY_NOTICES.md`;
  if (shipped.output !== noticeText(dir, names)) {
    return "THIRD_PARTY_NOTICES.md is stale: run node scripts/third-party-notices.mjs";
  }
  return undefined;
}

const started = Date.now();
const results = [];
// Two at a time: each attw run loads its own TypeScript, and CI machines have two cores.
const queue = [...packages];
await Promise.all(
  [0, 1].map(async () => {
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      results.push(await check(dir));
    }
  }),
);
rmSync(out, { recursive: true, force: true });

results.sort((a, b) => a.dir.localeCompare(b.dir));
for (const r of results) {
  const name = r.dir.slice(root.length);
  console.log(
    `${r.ok ? "ok  " : "FAIL"} ${name}  publint --strict: ${r.publint ? "ok" : "FAIL"}  attw: ${r.attw ? "ok" : "FAIL"}  notices: ${r.notices ? "ok" : "FAIL"}`,
  );
  if (!r.ok) console.log(r.report.join("\n"));
}
const failed = results.filter((r) => !r.ok).length;
console.log(
  `${results.length - failed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`,
);
process.exit(failed === 0 ? 0 : 1);
