// Gateway load at fixed concurrency on loopback: requests/s and latency percentiles for the
// simulator alone, a minimal undici pass-through proxy, and the gateway on its same-format fast
// path and across formats, stream and not. The simulator, the target and this load generator run
// in separate processes; each row is shown as a ratio to the pass-through proxy of the same
// upstream protocol, the floor any proxy pays for moving those bytes.
//   cd bench && node src/gateway-load.bench.ts [--concurrency 32] [--duration-ms 2000]   (after `pnpm build`)
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type LoadCase, type LoadResult, runLoad } from "../../apps/gateway/bench/load.ts";

const SERVE = fileURLToPath(new URL("../../apps/gateway/bench/serve.ts", import.meta.url));
const BENCH_KEY = "sk-bench";
const { values: flags } = parseArgs({
  options: {
    concurrency: { type: "string", default: "32" },
    "duration-ms": { type: "string", default: "2000" },
  },
});
const concurrency = Number(flags.concurrency);
const durationMs = Number(flags["duration-ms"]);

const children: ChildProcess[] = [];
async function serve(...args: string[]): Promise<string> {
  const child = spawn(process.execPath, [SERVE, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  const lines = createInterface({ input: child.stdout! });
  const [url] = (await once(lines, "line")) as [string];
  return url;
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
type Row = LoadCase & { floor: string };

try {
  const sim = await serve("sim");
  const proxy = await serve("proxy", sim);
  const gateway = await serve("gateway", sim);
  const upstreamAuth = { authorization: "Bearer sim-key" };
  const gatewayAuth = { authorization: `Bearer ${BENCH_KEY}`, "x-interlingua-envelope": "bare" };

  const groups: { title: string; rows: Row[] }[] = [false, true].map((stream) => ({
    title: stream ? "stream" : "non-stream",
    rows: [
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
    ],
  }));

  console.log(`concurrency ${concurrency}, ${durationMs} ms per case`);
  // Every path once before measuring, so no row pays for another's JIT warm-up.
  for (const row of groups.flatMap((g) => g.rows)) {
    await runLoad(row, { concurrency, durationMs: 300, warmupMs: 0 });
  }
  for (const group of groups) {
    const results = new Map<string, LoadResult>();
    for (const row of group.rows)
      results.set(row.name, await runLoad(row, { concurrency, durationMs, warmupMs: 500 }));
    console.log(`\n${group.title}`);
    const width = Math.max(...group.rows.map((r) => r.name.length));
    for (const row of group.rows) {
      const r = results.get(row.name)!;
      const ratio = r.perSecond / results.get(row.floor)!.perSecond;
      console.log(
        `${r.name.padEnd(width)}  ${Math.round(r.perSecond).toString().padStart(7)} req/s` +
          `  p50 ${r.p50Ms.toFixed(1).padStart(6)} ms  p99 ${r.p99Ms.toFixed(1).padStart(6)} ms` +
          `  ${ratio.toFixed(2)}x ${row.floor}${r.errors > 0 ? `  (${r.errors} errors)` : ""}`,
      );
    }
  }
} finally {
  for (const child of children) child.kill();
}
