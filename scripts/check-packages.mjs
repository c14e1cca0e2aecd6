#!/usr/bin/env node
// Packs every public package under packages/ exactly as `pnpm publish` would (workspace:
// ranges rewritten, only `files` included), then lints each tarball with publint --strict and
// checks its types under every module resolution with @arethetypeswrong/cli (node10 included,
// which is what `typesVersions` is for), and checks that inlined third-party code ships its
// notices. Run after `pnpm build`; exits non-zero on any problem.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { inlinedPackages, noticeText } from "./third-party-notices.mjs";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));
// scripts/test/compile-cache.ts's cache, for this process's TypeScript (attw) and the packing.
process.env.NODE_COMPILE_CACHE ??= join(root, "node_modules", ".cache", "node-compile");
module.enableCompileCache?.(process.env.NODE_COMPILE_CACHE);
// Imported after the cache is on (a static import would load TypeScript before it).
const { checkPackage, createPackageFromTarballData } = await import("@arethetypeswrong/core");
const { publint } = await import("publint");
const { formatMessage } = await import("publint/utils");
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
  const data = await readFile(tarball);
  const [lint, types] = [await lintTarball(data), await typesOf(tarball, data)];
  const notices = await checkNotices(dir, tarball);
  const report = [!lint.ok && lint.output, !types.ok && types.output, notices].filter(Boolean);
  const ok = lint.ok && types.ok && notices === undefined;
  return { dir, tarball, publint: lint.ok, attw: types.ok, notices: !notices, ok, report };
}

// publint and attw run in this process, not as a CLI each per package: every attw CLI loaded
// its own TypeScript, which was most of this script's CPU. Both judge as their CLIs do.

/** `publint run <tarball> --strict`: strict makes warnings errors, and any error fails. */
async function lintTarball(data) {
  const tarball = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  const { messages, pkg } = await publint({ pack: { tarball }, strict: true });
  const errors = messages.filter((m) => m.type === "error");
  const output = errors.map((m, i) => `${i + 1}. ${formatMessage(m, pkg)}`).join("\n");
  return { ok: errors.length === 0, output: `publint --strict:\n${output}` };
}

/**
 * `attw <tarball>` under its default (strict) profile: any problem, under any resolution, fails.
 * A failure is reported with the CLI's own table, run for that package only.
 */
async function typesOf(tarball, data) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(data)));
  if (!analysis.types || analysis.problems.length === 0) return { ok: true };
  const cli = await attempt(
    bin("attw"),
    [tarball, "--format", "ascii", "--no-emoji", "--no-color"],
    root,
  );
  return { ok: false, output: cli.output };
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
// Two at a time: one packs (a pnpm process) while the other's tarball is checked here.
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
