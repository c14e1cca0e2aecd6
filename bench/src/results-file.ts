import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";

/** bench/RESULTS.md: figures live here, written by the runs that measure them, not by hand. */
export const RESULTS_FILE = fileURLToPath(new URL("../RESULTS.md", import.meta.url));

const HEADER = `# Benchmark results

Written by \`pnpm bench\` (\`bench/src/run-all.ts\`): each section is the latest successful run of
one benchmark, as it printed it, with the commit and the machine it ran on. Do not edit by hand:
run \`pnpm bench <name>\` again. The READMEs point here instead of quoting figures.
`;

function commit(): string {
  try {
    const sha = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      encoding: "utf8",
    });
    return dirty.trim() === "" ? sha : `${sha} (with uncommitted changes)`;
  } catch {
    return "unknown";
  }
}

/** The sections of the file, by benchmark file name, in their order. */
function readSections(): Map<string, string> {
  const sections = new Map<string, string>();
  if (!existsSync(RESULTS_FILE)) return sections;
  const text = readFileSync(RESULTS_FILE, "utf8");
  for (const part of text.split(/^(?=## )/m).slice(1)) {
    const name = /^## (\S+)/.exec(part)?.[1];
    if (name !== undefined) sections.set(name, part.trimEnd());
  }
  return sections;
}

/** Replaces one benchmark's section with what its run printed. */
export function recordResult(file: string, args: readonly string[], output: string): void {
  const sections = readSections();
  const load = loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
  const ran = [
    `## ${file}`,
    "",
    `\`node bench/src/${[file, ...args].join(" ")}\` on ${new Date().toISOString().slice(0, 16)}Z,`,
    `commit ${commit()}, Node ${process.version}, ${availableParallelism()} cores, load ${load} at the end.`,
    "",
    "```",
    output.trimEnd(),
    "```",
  ].join("\n");
  sections.set(file, ran);
  const ordered = [...sections.keys()].sort().map((name) => sections.get(name));
  writeFileSync(RESULTS_FILE, `${HEADER}\n${ordered.join("\n\n")}\n`);
}
