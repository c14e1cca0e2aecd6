// Runs every *.bench.ts beside this file in its own process, one after another, so one
// benchmark's garbage and JIT state never colour another's numbers. Pass names to pick some.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();

let failed = 0;
for (const file of files) {
  console.log(`\n## ${file}`);
  const run = spawnSync(process.execPath, [join(here, file)], { stdio: "inherit" });
  if (run.status !== 0) failed++;
}
process.exit(failed === 0 ? 0 : 1);
