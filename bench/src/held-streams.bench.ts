// Many streams held open on one channel (issue 30): the simulator streams a chunk every
// --interval-ms, the load generator opens --streams streams at --rate a second and holds them all
// until they end, against a bare pass-through proxy and the gateway (one channel per protocol,
// shipped defaults: accounting on, warn logs), each in its own process. Per target it prints the
// time to response headers (p50, p99) while streams open, the share of chunks that came late (a gap
// over interval + --late-ms), the longest gap, and the target's RSS per open stream (RSS with every
// stream open, less RSS before), with the gateway's figures as ratios to the pass-through's.
// RSS swings by a third between runs on a shared machine: stream-heap.bench.ts is the stable
// per-stream memory figure (collected heap).
// Bounded: every stream ends by itself, and the run stops itself after --time-limit-ms.
//   cd bench && node src/held-streams.bench.ts [--streams 5000] [--rate 1000] [--interval-ms 500]
//     [--chunks 20] [--late-ms 250]   (after `pnpm build`)
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startServe } from "./serve-child.ts";

const { values: flags } = parseArgs({
  options: {
    streams: { type: "string", default: "5000" },
    rate: { type: "string", default: "1000" },
    "interval-ms": { type: "string", default: "500" },
    chunks: { type: "string", default: "20" },
    "late-ms": { type: "string", default: "250" },
    "time-limit-ms": { type: "string", default: "600000" },
  },
});
const STREAMS = Number(flags.streams);
const RATE = Number(flags.rate);
const INTERVAL_MS = Number(flags["interval-ms"]);
const CHUNKS = Number(flags.chunks);
const LATE_MS = Number(flags["late-ms"]);
const BENCH_KEY = "sk-bench";

const root = fileURLToPath(new URL("../..", import.meta.url));
const children: ChildProcess[] = [];
const stopAll = () => {
  for (const child of children) child.kill("SIGKILL");
};
process.once("exit", stopAll);
setTimeout(() => {
  console.error(`held-streams: stopped after ${flags["time-limit-ms"]} ms`);
  process.exit(1);
}, Number(flags["time-limit-ms"])).unref();

/** Resident set of a process (Linux), in bytes. */
const rssOf = (pid: number): number => {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
};

interface StreamResult {
  headersMs: number;
  /** Until the first body chunk: the pass-through sends headers before it, the gateway with it. */
  firstChunkMs: number;
  gaps: number[];
  chunks: number;
  ok: boolean;
}

const body = JSON.stringify({
  model: "txtA-5",
  stream: true,
  messages: [
    {
      role: "user",
      // tail=2: the usage report and [DONE] follow the finish at once, as providers send them;
      // paced, the usage chunk the gateway asks for and keeps back showed as one late gap.
      content: `[[fault:chunk-delay=${INTERVAL_MS},tail=2]] [[len:${CHUNKS}]] hold this stream`,
    },
  ],
});

/** One stream: time to headers, then the gap before each chunk after the first. */
async function oneStream(url: string, opened: () => void): Promise<StreamResult> {
  const started = performance.now();
  try {
    const res = await fetch(`${url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${BENCH_KEY}` },
      body,
    });
    const headersMs = performance.now() - started;
    opened();
    const gaps: number[] = [];
    let last = performance.now();
    let chunks = 0;
    let firstChunkMs = Number.NaN;
    const reader = res.body!.getReader();
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      const now = performance.now();
      if (chunks === 0) firstChunkMs = now - started;
      if (chunks > 0) gaps.push(now - last);
      last = now;
      chunks++;
    }
    return { headersMs, firstChunkMs, gaps, chunks, ok: res.status === 200 };
  } catch {
    opened();
    const ms = performance.now() - started;
    return { headersMs: ms, firstChunkMs: ms, gaps: [], chunks: 0, ok: false };
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted.length === 0
    ? Number.NaN
    : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);

interface TargetFigures {
  name: string;
  failed: number;
  headersP50: number;
  headersP99: number;
  firstChunkP50: number;
  latePct: number;
  maxGap: number;
  rssPerStreamKb: number;
}

async function measure(name: string, url: string, pid: number): Promise<TargetFigures> {
  // Warm the target's paths and pools with a few streams first.
  await Promise.all(Array.from({ length: 8 }, () => oneStream(url, () => {})));
  await sleep(1_000);
  const rssBefore = rssOf(pid);
  let open = 0;
  let peakRss = rssBefore;
  const runs: Promise<StreamResult>[] = [];
  const spacing = 1_000 / RATE;
  const t0 = performance.now();
  for (let i = 0; i < STREAMS; i++) {
    const due = t0 + i * spacing;
    const wait = due - performance.now();
    if (wait > 4) await sleep(wait);
    runs.push(oneStream(url, () => open++));
  }
  // Every stream open (headers in) or failed: the target holds them all now.
  while (open < STREAMS) await sleep(20);
  peakRss = Math.max(peakRss, rssOf(pid));
  await sleep(INTERVAL_MS);
  peakRss = Math.max(peakRss, rssOf(pid));
  const results = await Promise.all(runs);
  const headers = results.map((r) => r.headersMs).sort((a, b) => a - b);
  const firsts = results.map((r) => r.firstChunkMs).sort((a, b) => a - b);
  const gaps = results.flatMap((r) => r.gaps);
  const late = gaps.filter((g) => g > INTERVAL_MS + LATE_MS).length;
  return {
    name,
    failed: results.filter((r) => !r.ok || r.chunks < 2).length,
    headersP50: quantile(headers, 0.5),
    headersP99: quantile(headers, 0.99),
    firstChunkP50: quantile(firsts, 0.5),
    latePct: gaps.length === 0 ? 100 : (100 * late) / gaps.length,
    maxGap: gaps.reduce((a, b) => Math.max(a, b), 0),
    rssPerStreamKb: (peakRss - rssBefore) / STREAMS / 1024,
  };
}

const sim = await startServe(root, ["sim"], children);
const proxy = await startServe(root, ["proxy", sim.url], children);
const gateway = await startServe(root, ["gateway", sim.url], children);
const rows = [
  await measure("pass-through", proxy.url, proxy.pid),
  await measure("gateway", gateway.url, gateway.pid),
];

console.log(
  `${STREAMS} streams on one channel, opened at ${RATE}/s, a chunk every ${INTERVAL_MS} ms, ${CHUNKS} chunks; late = gap over ${INTERVAL_MS + LATE_MS} ms`,
);
console.log(
  "| target | failed | headers p50 | headers p99 | first chunk p50 | late chunks | longest gap | RSS per stream |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
const floor = rows[0] as TargetFigures;
for (const row of rows) {
  const ratio =
    row === floor ? "" : ` (${(row.rssPerStreamKb / floor.rssPerStreamKb).toFixed(2)}x)`;
  console.log(
    `| ${row.name} | ${row.failed} | ${row.headersP50.toFixed(0)} ms | ${row.headersP99.toFixed(0)} ms | ${row.firstChunkP50.toFixed(0)} ms | ${row.latePct.toFixed(2)}% | ${row.maxGap.toFixed(0)} ms | ${row.rssPerStreamKb.toFixed(1)} KB${ratio} |`,
  );
}
stopAll();
process.exit(rows.some((r) => r.failed > 0) ? 1 : 0);
