// Runs every *.bench.ts beside this file in its own process, one after another, so one
// benchmark's garbage and JIT state never colour another's numbers. Pass names to pick some;
// arguments after `--` go to each of them.
//
// What each prints is also written to bench/RESULTS.md, the one home of benchmark figures: each
// benchmark's section is replaced by its latest run, with the commit and the machine it ran on.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { recordResult } from "./results-file.ts";

const here = dirname(fileURLToPath(import.meta.url));
const dash = process.argv.indexOf("--");
const wanted = process.argv.slice(2, dash === -1 ? undefined : dash);
const passed = dash === -1 ? [] : process.argv.slice(dash + 1);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

/** Runs one benchmark, echoing its output; resolves to what it printed and its exit code. */
function run(file: string): Promise<{ output: string; code: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(here, file), ...passed], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on("close", (code) => resolve({ output, code: code ?? 1 }));
  });
}

let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const { output, code } = await run(file);
  if (code !== 0) failed++;
  else recordResult(file, [...passed], output);
}
process.exit(failed === 0 ? 0 : 1);
