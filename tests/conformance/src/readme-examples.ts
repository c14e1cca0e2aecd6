import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { packagesDir } from "./packages.js";

/**
 * A ```ts block of a package README. Every block must type-check under strict settings and run;
 * a fence marked ```ts no-run is a deliberate fragment and is skipped.
 */
export interface ReadmeExample {
  /** e.g. `fmt-chat-2`: the package folder and the block's index in its README. */
  name: string;
  readme: string;
  line: number;
  code: string;
}

const fence = /^```(?:ts|typescript)([^\n]*)\n([\s\S]*?)^```/gm;

export function readmeExamples(): ReadmeExample[] {
  const examples: ReadmeExample[] = [];
  for (const dir of readdirSync(packagesDir).sort()) {
    const readme = join(packagesDir, dir, "README.md");
    let text: string;
    try {
      text = readFileSync(readme, "utf8");
    } catch {
      continue;
    }
    let index = 0;
    for (const match of text.matchAll(fence)) {
      index += 1;
      if (/\bno-run\b/.test(match[1] ?? "")) continue;
      const line = text.slice(0, match.index).split("\n").length;
      examples.push({ name: `${dir}-${index}`, readme, line, code: match[2] ?? "" });
    }
  }
  return examples;
}

/** What a user of the published packages would compile with: strict, Node's ESM resolution. */
const compilerOptions = {
  target: "ES2022",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  types: [],
  outDir: "out",
};

/**
 * Writes the examples as .mts files into `dir` (where `@interlingua/*` resolves), type-checks
 * them in one tsc run and emits JavaScript. Returns tsc's diagnostics ("" when clean).
 */
export function compileExamples(examples: ReadmeExample[], dir: string): string {
  for (const e of examples) writeFileSync(join(dir, `${e.name}.mts`), e.code);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({ compilerOptions, include: ["*.mts"] }, null, 2),
  );
  // TypeScript 7 (native), as every workspace's `typecheck`; its exports hide `bin/`.
  const tsc = join(
    dirname(createRequire(import.meta.url).resolve("typescript-7/package.json")),
    "bin",
    "tsc",
  );
  try {
    execFileSync(process.execPath, [tsc, "-p", dir], { encoding: "utf8", cwd: dir });
    return "";
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}`;
  }
}

/** Runs one compiled example with Node; throws with its output when it fails. */
export function runExample(example: ReadmeExample, dir: string): string {
  return execFileSync(process.execPath, [join(dir, "out", `${example.name}.mjs`)], {
    cwd: dir,
    encoding: "utf8",
    // Under the test's own 60 s: a property example ran 20 s on a two-core machine at load 16.
    timeout: 50_000,
    stdio: ["ignore", "pipe", "pipe"],
  });
}
