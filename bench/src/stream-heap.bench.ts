// Heap per held stream (issue 30: memory per stream within 1.3x the pass-through). The simulator
// sends each stream's first chunk at once, then one every --hold-ms; the load generator opens
// --streams streams (--opening at a time waiting for their first chunk) against a bare
// pass-through proxy and the gateway (one channel, shipped defaults: accounting on, warn logs),
// each in its own process started with --expose-gc and apps/gateway/bench/heap-probe.ts. With
// every stream open and past its first chunk, it reads the target's heap after full collections
// (over IPC), less the same reading before the streams opened, per stream (also external memory:
// Buffers); then the gateway's figures as ratios to the pass-through's, against the 1.3x limit.
// --prompt-bytes pads the prompt, to see what each keeps of the request while the stream runs.
// Collected heap moves by about 0.1 KB per stream between runs, where RSS (held-streams.bench.ts)
// moves by several KB.
// Bounded: streams are aborted after the reading, children die with the run, which stops itself
// after --time-limit-ms.
//   cd bench && node src/stream-heap.bench.ts [--streams 5000] [--opening 64] [--hold-ms 25000]
//     [--prompt-bytes 0]   (after `pnpm build`)
import type { ChildProcess } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type HeapReading, startServe } from "./serve-child.ts";

const { values: flags } = parseArgs({
  options: {
    streams: { type: "string", default: "5000" },
    opening: { type: "string", default: "64" },
    "hold-ms": { type: "string", default: "25000" },
    "prompt-bytes": { type: "string", default: "0" },
    "time-limit-ms": { type: "string", default: "300000" },
  },
});
const STREAMS = Number(flags.streams);
const OPENING = Number(flags.opening);
// The simulator caps a chunk delay at 30 s.
const HOLD_MS = Math.min(Number(flags["hold-ms"]), 30_000);
// With a chunk every HOLD_MS, a stream lasts minutes: it is aborted after the reading.
const CHUNKS = 20;
// Padding of the user message: what a target keeps of the request while the stream runs.
const PROMPT_PAD = " lorem".repeat(Math.ceil(Number(flags["prompt-bytes"]) / 6));
const WARMUP_STREAMS = 50;
const LIMIT = 1.3;
const BENCH_KEY = "sk-bench";

const root = fileURLToPath(new URL("../..", import.meta.url));
const children: ChildProcess[] = [];
const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
};
process.once("exit", stopAll);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(1));
setTimeout(() => {
  console.error(`stream-heap: stopped after ${flags["time-limit-ms"]} ms`);
  process.exit(1);
}, Number(flags["time-limit-ms"])).unref();

const body = JSON.stringify({
  model: "txtA-5",
  stream: true,
  messages: [
    {
      role: "user",
      content: `[[fault:chunk-delay=${HOLD_MS}]] [[len:${CHUNKS}]] hold this stream${PROMPT_PAD}`,
    },
  ],
});

/** Why streams failed, each reason once (printed to stderr). */
const failures = new Set<string>();

/** An open stream: resolves `first` on its first body chunk; `ended` once its body is over. */
interface Held {
  first: Promise<boolean>;
  done: Promise<void>;
  ended: () => boolean;
}

function holdStream(url: string, signal: AbortSignal): Held {
  let chunks = 0;
  let ended = false;
  let firstIn: (ok: boolean) => void = () => {};
  const first = new Promise<boolean>((resolve) => {
    firstIn = resolve;
  });
  const done = (async () => {
    try {
      const res = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${BENCH_KEY}` },
        body,
        signal,
      });
      if (res.status !== 200) {
        failures.add(`status ${res.status}: ${(await res.text()).slice(0, 200)}`);
        return;
      }
      const reader = res.body!.getReader();
      for (;;) {
        const { done } = await reader.read();
        if (done) {
          ended = true;
          return;
        }
        if (chunks++ === 0) firstIn(true);
      }
    } catch (error) {
      // Aborted after the reading, or failed: a stream without a first chunk counts as failed.
      if (!signal.aborted) failures.add(String((error as Error).cause ?? error));
    } finally {
      firstIn(false);
    }
  })();
  return { first, done, ended: () => ended };
}

/**
 * Opens `count` streams, at most OPENING at a time waiting for their first chunk, so the target
 * is never asked faster than it answers (a refused or timed-out connect is not a held stream);
 * resolves once each has its first chunk or failed.
 */
async function openStreams(url: string, count: number, signal: AbortSignal) {
  const held: Held[] = [];
  const t0 = performance.now();
  let failed = 0;
  const opener = async () => {
    while (held.length < count) {
      const stream = holdStream(url, signal);
      held.push(stream);
      if (!(await stream.first)) failed++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(OPENING, count) }, opener));
  return { held, failed, openMs: performance.now() - t0 };
}

interface TargetFigures {
  name: string;
  failed: number;
  openMs: number;
  before: HeapReading;
  held: HeapReading;
  heapPerStream: number;
  externalPerStream: number;
}

async function measure(
  name: string,
  target: { url: string; heap: () => Promise<HeapReading> },
): Promise<TargetFigures> {
  // Warm the target's stream path (and its abort path) with a few held streams first.
  const warm = new AbortController();
  const warmup = await openStreams(target.url, WARMUP_STREAMS, warm.signal);
  warm.abort();
  await Promise.all(warmup.held.map((h) => h.done));
  await sleep(1_000);
  const before = await target.heap();
  const streams = new AbortController();
  const run = await openStreams(target.url, STREAMS, streams.signal);
  // Let the last first chunks finish their way through the target.
  await sleep(500);
  const held = await target.heap();
  // Every stream must still be open: one that ended no longer counts in the reading.
  const moved = run.held.filter((h) => h.ended()).length;
  streams.abort();
  await Promise.all(run.held.map((h) => h.done));
  if (moved > 0) {
    console.error(
      `stream-heap: ${name}: ${moved} streams ended before the reading; raise --hold-ms`,
    );
    process.exit(1);
  }
  return {
    name,
    failed: run.failed,
    openMs: run.openMs,
    before,
    held,
    heapPerStream: (held.heapUsed - before.heapUsed) / (STREAMS - run.failed),
    externalPerStream: (held.external - before.external) / (STREAMS - run.failed),
  };
}

const sim = await startServe(root, ["sim"], children);
const proxy = await startServe(root, ["proxy", sim.url], children, { heapProbe: true });
const gateway = await startServe(root, ["gateway", sim.url], children, { heapProbe: true });
const floor = await measure("pass-through", proxy);
const ours = await measure("gateway", gateway);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(
  `${STREAMS} streams held open on one channel, opened ${OPENING} at a time, past their first chunk, a chunk every ${HOLD_MS} ms${PROMPT_PAD === "" ? "" : `, ${PROMPT_PAD.length} more bytes of prompt`}; memory after full GC with all held, less before, per stream`,
);
console.log(
  "| target | failed | opened in | heap before | heap held | heap per stream | external per stream |",
);
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
for (const row of [floor, ours]) {
  console.log(
    `| ${row.name} | ${row.failed} | ${(row.openMs / 1000).toFixed(1)} s | ${mb(row.before.heapUsed)} | ${mb(row.held.heapUsed)} | ${kb(row.heapPerStream)} | ${kb(row.externalPerStream)} |`,
  );
}
for (const reason of failures) console.error(`stream-heap: a stream failed: ${reason}`);
// Heap is the stable figure of issue 30; with external memory too, a request body a target keeps
// as a Buffer (off the heap) counts the same as one it keeps as a string.
const ratios = [
  ["heap per stream", ours.heapPerStream / floor.heapPerStream],
  [
    "heap + external per stream",
    (ours.heapPerStream + ours.externalPerStream) / (floor.heapPerStream + floor.externalPerStream),
  ],
] as const;
console.log(`\ngateway / pass-through (limit ${LIMIT.toFixed(1)}x)`);
for (const [what, ratio] of ratios)
  console.log(`${what.padEnd(27)} ${ratio.toFixed(2)}x  verdict ${ratio <= LIMIT ? "ok" : "over"}`);
stopAll();
process.exit(floor.failed + ours.failed > 0 ? 1 : 0);
