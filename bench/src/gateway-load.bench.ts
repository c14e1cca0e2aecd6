// Gateway load at fixed concurrency on loopback: requests/s and latency percentiles for the
// simulator alone, a minimal undici pass-through proxy, and the gateway on its same-format fast
// path and across formats, stream and not. The simulator, the target and this load generator run
// in separate processes; each row is shown as a ratio to the pass-through proxy of the same
// upstream protocol, the floor any proxy pays for moving those bytes. `@portkey-ai/gateway` (pinned
// in this package) runs the OpenAI rows too, routed to the same simulator. Stream rows add the
// median time to the first body byte (TTFB), under load and with one request at a time. Every
// case is probed once first: a case whose answer is not a 200 with content stops the run, and
// failures under load are counted by status. Bounded: children die with the run, which stops
// itself after --time-limit-ms.
//   cd bench && node src/gateway-load.bench.ts [--concurrency 32] [--duration-ms 2000] [--rounds 3]
//     [--warmup-ms 2000]   (after `pnpm build`)
//   GATEWAY_CPU_PROF=/tmp/prof node src/gateway-load.bench.ts   (writes the gateway's .cpuprofile there)
//   node src/gateway-load.bench.ts --accounting on|off|compare   (default compare: the cost of
//   billing as an on/off ratio per gateway row; see accounting-compare.ts)
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type LoadCase, type LoadResult, probe, runLoad } from "../../apps/gateway/bench/load.ts";
import {
  ACCOUNTING_MODES,
  type AccountingMode,
  GATEWAY_FLAGS,
  printAccountingCost,
  withAccountingTwins,
} from "./accounting-compare.ts";
import { startServe } from "./serve-child.ts";

const PORTKEY = createRequire(import.meta.url)
  .resolve("@portkey-ai/gateway/package.json")
  .replace(/package\.json$/, "build/start-server.js");
const BENCH_KEY = "sk-bench";
const { values: flags } = parseArgs({
  options: {
    concurrency: { type: "string", default: "32" },
    "duration-ms": { type: "string", default: "2000" },
    rounds: { type: "string", default: "3" },
    "warmup-ms": { type: "string", default: "2000" },
    "time-limit-ms": { type: "string", default: "900000" },
    accounting: { type: "string", default: "compare" },
  },
});
const accounting = flags.accounting as AccountingMode;
if (!ACCOUNTING_MODES.includes(accounting)) {
  console.error(`--accounting must be one of ${ACCOUNTING_MODES.join(", ")}`);
  process.exit(2);
}
const concurrency = Number(flags.concurrency);
const durationMs = Number(flags["duration-ms"]);

// Children die with this process, however it ends; the run as a whole is bounded.
const children: ChildProcess[] = [];
const killChildren = () => {
  for (const child of children) if (child.exitCode === null) child.kill();
};
process.once("exit", killChildren);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    killChildren();
    process.exit(130);
  });
setTimeout(() => {
  console.error(`gateway-load: over the ${flags["time-limit-ms"]} ms limit, stopping`);
  process.exit(1);
}, Number(flags["time-limit-ms"])).unref();

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const serve = async (...args: string[]) => (await startServe(ROOT, args, children)).url;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Portkey's gateway in its own process; ready when `GET /` says hey. */
async function servePortkey(): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [PORTKEY, "--headless", `--port=${port}`], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  children.push(child);
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    const hey = await fetch(`${url}/`)
      .then((r) => r.text())
      .catch(() => "");
    if (hey.includes("AI Gateway says hey!")) return url;
    await sleep(50);
  }
  throw new Error("@portkey-ai/gateway did not start");
}

const PROMPT = "Summarise the benefits of a gateway. [[len:60]]";
const chat = (model: string, stream: boolean) =>
  JSON.stringify({
    model,
    messages: [{ role: "user", content: PROMPT }],
    ...(stream ? { stream: true } : {}),
  });
const messages = (model: string, stream: boolean) =>
  JSON.stringify({
    model,
    max_tokens: 256,
    messages: [{ role: "user", content: PROMPT }],
    ...(stream ? { stream: true } : {}),
  });

/** A row and the pass-through row it is compared with (the same upstream protocol and path). */
type Row = LoadCase & { floor: string; stream: boolean };

const sim = await serve("sim");
const [proxy, gateway, portkey, gatewayOff] = await Promise.all([
  serve("proxy", sim),
  serve("gateway", sim, ...GATEWAY_FLAGS[accounting]),
  servePortkey(),
  accounting === "compare" ? serve("gateway", sim, "--no-accounting") : undefined,
]);
const upstreamAuth = { authorization: "Bearer sim-key" };
const gatewayAuth = { authorization: `Bearer ${BENCH_KEY}`, "x-interlingua-envelope": "bare" };
const portkeyRoute = {
  ...upstreamAuth,
  "x-portkey-provider": "openai",
  "x-portkey-custom-host": `${sim}/v1`,
};
const PORTKEY_ROW = "@portkey-ai/gateway 1.15.2 (openai)";

const twinned = (rows: Row[]) =>
  gatewayOff === undefined ? rows : withAccountingTwins(rows, gateway, gatewayOff);
const groups: { title: string; rows: Row[] }[] = [false, true].map((stream) => ({
  title: stream ? "stream" : "non-stream",
  rows: twinned(
    [
      {
        name: "simulator direct (openai)",
        floor: "pass-through (openai)",
        url: `${sim}/v1/chat/completions`,
        headers: upstreamAuth,
        body: chat("txtA-5", stream),
      },
      {
        name: "pass-through (openai)",
        floor: "pass-through (openai)",
        url: `${proxy}/v1/chat/completions`,
        headers: upstreamAuth,
        body: chat("txtA-5", stream),
      },
      {
        name: "pass-through (anthropic)",
        floor: "pass-through (anthropic)",
        url: `${proxy}/v1/messages`,
        headers: { "x-api-key": "sim-key", "anthropic-version": "2023-06-01" },
        body: messages("txtB-sonnet-4-6", stream),
      },
      {
        name: "gateway chat -> openai (same format)",
        floor: "pass-through (openai)",
        url: `${gateway}/v1/chat/completions`,
        headers: gatewayAuth,
        body: chat("txtA-5", stream),
      },
      {
        name: "gateway messages -> anthropic (same format)",
        floor: "pass-through (anthropic)",
        url: `${gateway}/v1/messages`,
        headers: gatewayAuth,
        body: messages("txtB-sonnet-4-6", stream),
      },
      {
        name: "gateway messages -> openai (cross)",
        floor: "pass-through (openai)",
        url: `${gateway}/v1/messages`,
        headers: gatewayAuth,
        body: messages("txtA-5", stream),
      },
      {
        name: "gateway chat -> anthropic (cross)",
        floor: "pass-through (anthropic)",
        url: `${gateway}/v1/chat/completions`,
        headers: gatewayAuth,
        body: chat("txtB-sonnet-4-6", stream),
      },
      {
        name: PORTKEY_ROW,
        floor: "pass-through (openai)",
        url: `${portkey}/v1/chat/completions`,
        headers: portkeyRoute,
        body: chat("txtA-5", stream),
      },
    ].map((row) => ({ ...row, stream })),
  ),
}));

/** A non-stream chat or messages reply with some generated text in it. */
function hasText(json: string): boolean {
  try {
    const reply = JSON.parse(json);
    const text = reply.choices?.[0]?.message?.content ?? reply.content?.[0]?.text;
    return typeof text === "string" && text.length > 0;
  } catch {
    return false;
  }
}

// Every case must answer a 200 with content before it is worth timing.
for (const row of groups.flatMap((g) => g.rows)) {
  const { status, text } = await probe(row);
  const content = row.stream
    ? text.includes("data:") && /"(content|text|delta)"/.test(text)
    : hasText(text);
  if (status !== 200 || !content)
    throw new Error(
      `${row.name} (${row.stream ? "stream" : "non-stream"}) answered ${status}: ${text.slice(0, 300)}`,
    );
}

console.log(
  `concurrency ${concurrency}, ${durationMs} ms per case, ${flags.rounds} rounds, gateway accounting ${accounting}`,
);
// Every path under load before measuring, long enough for V8 to finish optimising it: a
// gateway's per-call CPU keeps falling for its first seconds of load (a streamed chat call took
// about 1 ms in its first second and about 0.3 ms from the fourth on), far longer than the
// proxy's few functions take. Rows then compare steady states, as a long-running server runs.
const warmupMs = Number(flags["warmup-ms"]);
for (const row of groups.flatMap((g) => g.rows)) {
  await runLoad(row, { concurrency, durationMs: warmupMs, warmupMs: 0 });
}
const ms = (n: number) => n.toFixed(1).padStart(6);
// Under load a stream's first byte waits in the same queues as everything else, so stream rows
// also time it alone (one request at a time), where the difference is the target's own cost.
const TTFB_ALONE = { concurrency: 1, durationMs: 600, warmupMs: 100 };
// One pass over every row is at the mercy of whatever else the machine did during those two
// seconds (on a shared 2-core VM the floor alone moved between 4.6k and 8k req/s from run to run).
// Rows are measured in rounds, every row once per round, and each row reports its median round;
// its ratio is the median of its per-round ratios to the floor measured in the same round, shown
// with their range.
const rounds = Number(flags.rounds);
const measured = groups.map((group) => ({
  group,
  results: new Map<string, LoadResult[]>(),
  alone: new Map<string, LoadResult[]>(),
}));
for (let round = 0; round < rounds; round++) {
  for (const { group, results, alone } of measured) {
    for (const row of group.rows) {
      const result = await runLoad(row, { concurrency, durationMs, warmupMs: 500 });
      results.set(row.name, [...(results.get(row.name) ?? []), result]);
      if (group.title === "stream")
        alone.set(row.name, [...(alone.get(row.name) ?? []), await runLoad(row, TTFB_ALONE)]);
    }
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
/** The round whose requests/s is the median (the lower middle one for an even count). */
const medianRound = (runs: LoadResult[]) =>
  [...runs].sort((a, b) => a.perSecond - b.perSecond)[Math.floor((runs.length - 1) / 2)]!;
const medianTtfb = (runs: LoadResult[]) => median(runs.map((r) => r.ttfbP50Ms));
/** Per-round ratios of `of` to `to` (same round), as median and range. */
const ratios = (of: LoadResult[], to: LoadResult[]) => {
  const each = of.map((r, i) => r.perSecond / to[i]!.perSecond);
  return { median: median(each), min: Math.min(...each), max: Math.max(...each) };
};
const range = (r: { min: number; max: number }) =>
  rounds > 1 ? ` [${r.min.toFixed(2)}-${r.max.toFixed(2)}]` : "";
for (const { group, results: runs, alone: aloneRuns } of measured) {
  const stream = group.title === "stream";
  const results = new Map([...runs].map(([name, r]) => [name, medianRound(r)]));
  console.log(`\n${group.title}`);
  const width = Math.max(...group.rows.map((r) => r.name.length));
  for (const row of group.rows) {
    const r = results.get(row.name)!;
    const ratio = ratios(runs.get(row.name)!, runs.get(row.floor)!);
    const ttfb = stream
      ? `  ttfb p50 ${ms(r.ttfbP50Ms)} ms, alone ${medianTtfb(aloneRuns.get(row.name)!).toFixed(2)} ms`
      : "";
    const failed: Record<string, number> = {};
    for (const run of [...runs.get(row.name)!, ...(aloneRuns.get(row.name) ?? [])])
      for (const [status, n] of Object.entries(run.failures))
        failed[status] = (failed[status] ?? 0) + n;
    const failures = Object.entries(failed).map(([status, n]) => `${n}x ${status}`);
    console.log(
      `${r.name.padEnd(width)}  ${Math.round(r.perSecond).toString().padStart(7)} req/s` +
        `  p50 ${ms(r.p50Ms)} ms  p99 ${ms(r.p99Ms)} ms${ttfb}` +
        `  ${ratio.median.toFixed(2)}x ${row.floor}${range(ratio)}` +
        (failures.length > 0 ? `  (failed: ${failures.join(", ")})` : ""),
    );
  }
  printAccountingCost(group.rows, results);
  for (const row of group.rows.filter((r) => r.name.startsWith("gateway "))) {
    const ratio = ratios(runs.get(row.name)!, runs.get(PORTKEY_ROW)!);
    console.log(
      `${row.name} / @portkey-ai/gateway: ${ratio.median.toFixed(2)}x req/s${range(ratio)}`,
    );
  }
  if (stream)
    for (const row of group.rows.filter((r) => r.floor !== r.name && !r.name.startsWith("sim"))) {
      const diff = (of: Map<string, LoadResult[]>) => {
        const d = medianTtfb(of.get(row.name)!) - medianTtfb(of.get(row.floor)!);
        return `${d >= 0 ? "+" : ""}${d.toFixed(2)} ms`;
      };
      console.log(
        `ttfb p50 ${row.name} - ${row.floor}: ${diff(aloneRuns)} alone, ${diff(runs)} under load`,
      );
    }
}
process.exit(0);
