#!/usr/bin/env node
// Third-party code that a package's build inlines (tsup `noExternal`) ships with its licence:
// this finds what each built package bundled (esbuild marks every inlined module with its
// node_modules path) and writes, or with --check compares, packages/<name>/THIRD_PARTY_NOTICES.md.
// Run after `pnpm build`; `--check` exits 1 when a notice is missing or stale.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const check = process.argv.includes("--check");
const NOTICES = "THIRD_PARTY_NOTICES.md";
// `node_modules/.pnpm/<name>@<version>/node_modules/<name>/…`, scoped names included.
const INLINED = /node_modules\/\.pnpm\/[^/\s]+\/node_modules\/((?:@[^/\s]+\/)?[^/\s]+)\//g;

/** The third-party packages inlined in a built package, from its dist files. */
export function inlinedPackages(dir) {
  const dist = join(dir, "dist");
  if (!existsSync(dist)) throw new Error(`${dir}: no dist (run pnpm build first)`);
  const names = new Set();
  for (const file of readdirSync(dist, { recursive: true })) {
    if (!/\.(c|m)?js$/.test(file)) continue;
    for (const match of readFileSync(join(dist, file), "utf8").matchAll(INLINED)) {
      names.add(match[1]);
    }
  }
  return [...names].sort();
}

/** The notice text for the given packages, resolved from the package's own node_modules. */
export function noticeText(dir, names) {
  const sections = names.map((name) => {
    const home = join(dir, "node_modules", name);
    const manifest = JSON.parse(readFileSync(join(home, "package.json"), "utf8"));
    const licence = readdirSync(home).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    if (licence === undefined) throw new Error(`${name}: no licence file to ship`);
    const text = readFileSync(join(home, licence), "utf8").trim();
    return `## ${name}@${manifest.version} (${manifest.license})\n\n\`\`\`\n${text}\n\`\`\`\n`;
  });
  return [
    "# Third-party notices",
    "",
    "This package's build includes code from the packages below, under their licences.",
    "",
    ...sections,
  ].join("\n");
}

function main() {
  let stale = 0;
  for (const entry of readdirSync(join(root, "packages"), { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(root, "packages", entry.name);
    const names = inlinedPackages(dir);
    const target = join(dir, NOTICES);
    if (names.length === 0) {
      if (existsSync(target)) {
        console.error(`${entry.name}: ${NOTICES} lists code the build no longer inlines`);
        stale++;
      }
      continue;
    }
    const text = noticeText(dir, names);
    const files = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).files ?? [];
    if (!files.includes(NOTICES)) {
      console.error(`${entry.name}: package.json "files" must include ${NOTICES}`);
      stale++;
    }
    if (check) {
      if (!existsSync(target) || readFileSync(target, "utf8") !== text) {
        console.error(`${entry.name}: ${NOTICES} is missing or stale (${names.join(", ")})`);
        stale++;
      }
    } else {
      writeFileSync(target, text);
      console.log(`${entry.name}: ${NOTICES} for ${names.join(", ")}`);
    }
  }
  if (stale > 0) {
    if (check) console.error("run: node scripts/third-party-notices.mjs");
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
