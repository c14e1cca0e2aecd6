// Summarises a V8 .cpuprofile (as `GATEWAY_CPU_PROF=<dir>` makes them): self time by function
// and by file, and total (inclusive) time of the functions under the gateway's own source, so a
// hot spot shows whose it is.
//   node src/profile-summary.ts <file.cpuprofile> [--top 40] [--match redact]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const { values: flags, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: "string", default: "40" }, match: { type: "string" } },
});
const profile = JSON.parse(readFileSync(positionals[0]!, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => {
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const short = (url: string) => url.replace(/^file:\/\/.*?\/(apps|packages|node_modules)\//, "$1/");
const label = (n: Node) =>
  `${n.callFrame.functionName || "(anonymous)"} ${short(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

const add = (map: Map<string, number>, key: string, us: number) =>
  map.set(key, (map.get(key) ?? 0) + us);
const selfByFn = new Map<string, number>();
const selfByFile = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, us] of selfUs) {
  const node = byId.get(id)!;
  add(selfByFn, label(node), us);
  add(selfByFile, short(node.callFrame.url) || node.callFrame.functionName, us);
  // Each function on the stack once, however often it recurses.
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const key = label(byId.get(at)!);
    if (seen.has(key)) continue;
    seen.add(key);
    add(inclusive, key, us);
  }
}
const top = Number(flags.top);
const show = (title: string, map: Map<string, number>, filter = (_: string) => true) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map]
    .filter(([k]) => filter(k))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)) {
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
  }
};
console.log(`total ${(total / 1e6).toFixed(2)} s sampled`);
show("self time by function", selfByFn);
show("self time by file", selfByFile);
const match = flags.match;
show(
  "total time, gateway source" + (match ? ` matching ${match}` : ""),
  inclusive,
  (k) => k.includes("apps/gateway/src") && (match === undefined || k.includes(match)),
);
