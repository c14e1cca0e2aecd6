// CPU per call, read from /proc (Linux only): for each case, the microseconds of CPU the target
// (gateway or pass-through proxy), the upstream and this load generator spend per request at
// fixed concurrency, median of --reps runs taken in turn, then each gateway case against the
// pass-through proxy of its upstream's protocol (CPU ratio, TTFB difference, req/s ratio) with the
// targets of issue 16. Requests/s on a shared 2-core machine swing with whatever else runs; CPU
// per call moves far less, so it is the measure to compare two builds with: `--against
// <checkout>` starts a second gateway from another checkout of this repository (built) and
// measures its cases right after ours, as `<case> (against)`. Gateways run with accounting off
// unless `--accounting on`, and log at warn unless `--log-level info` (both: the shipped defaults).
// The upstream is `static` by default (precomputed replies, next to no CPU, so the ratio is the
// gateway's own) or `sim`, the simulator. Bounded: children die with the run, which stops after
// --time-limit-ms.
//   cd bench && node src/gateway-cpu.bench.ts [--cases c2o-s,m2a-s] [--reps 5] [--duration-ms 2000]
//     [--upstream static|sim] [--accounting on|off] [--log-level info|warn]
//     [--against ../../other-checkout]   (after `pnpm build`)
//   GATEWAY_CPU_PROF=/tmp/prof ...   (writes each gateway's .cpuprofile there)
// Cases: <route>-<s|n> (stream or not), route one of c2o (chat -> openai), c2ou (the same with
// stream_options.include_usage, so no frame is held back), m2a (messages ->
// anthropic), m2o (messages -> openai), c2a (chat -> anthropic), proxy-o and proxy-a (the
// pass-through proxy, OpenAI and Anthropic).
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type LoadCase, runLoad } from "../../apps/gateway/bench/load.ts";
import { startServe } from "./serve-child.ts";

const { values: flags } = parseArgs({
  options: {
    cases: { type: "string", default: "proxy-o-s,c2o-s,proxy-a-s,m2a-s,m2o-s,c2a-s" },
    reps: { type: "string", default: "5" },
    "duration-ms": { type: "string", default: "2000" },
    concurrency: { type: "string", default: "32" },
    against: { type: "string" },
    upstream: { type: "string", default: "static" },
    accounting: { type: "string", default: "off" },
    "log-level": { type: "string" },
    "time-limit-ms": { type: "string", default: "600000" },
  },
});
if (flags.upstream !== "static" && flags.upstream !== "sim") {
  console.error("gateway-cpu: --upstream is static or sim");
  process.exit(2);
}
if (flags.accounting !== "on" && flags.accounting !== "off") {
  console.error("gateway-cpu: --accounting is on or off");
  process.exit(2);
}
// The gateways' log level (serve.ts reads BENCH_LOG_LEVEL; warn, no request lines, without it).
if (flags["log-level"] !== undefined) process.env["BENCH_LOG_LEVEL"] = flags["log-level"];
// A checkout from before BENCH_LOG_LEVEL serves at warn whatever is asked: against ours at info,
// its calls would skip the request line and look some 10-40% cheaper than they are.
if (
  flags["log-level"] !== undefined &&
  flags.against !== undefined &&
  !readFileSync(join(flags.against, "apps/gateway/bench/serve.ts"), "utf8").includes(
    "BENCH_LOG_LEVEL",
  )
) {
  console.error(
    `gateway-cpu: ${flags.against} serves at warn whatever --log-level asks (its apps/gateway/bench/serve.ts does not read BENCH_LOG_LEVEL); teach it to, or leave --log-level out`,
  );
  process.exit(2);
}
if (!existsSync("/proc/self/stat")) {
  console.error("gateway-cpu: reads CPU time from /proc, which this system does not have");
  process.exit(2);
}

const children: ChildProcess[] = [];
const killChildren = () => {
  for (const child of children) if (child.exitCode === null) child.kill();
};
process.once("exit", killChildren);
setTimeout(() => {
  console.error(`gateway-cpu: over the ${flags["time-limit-ms"]} ms limit, stopping`);
  process.exit(1);
}, Number(flags["time-limit-ms"])).unref();

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A serve.ts role of a checkout in its own process; its URL and pid. */
const serve = (root: string, ...args: string[]) => startServe(root, args, children);

/** User plus system CPU time of a process so far, in clock ticks (100 per second). */
function cpuTicks(pid: number | "self"): number {
  // Fields after the command name, which may itself hold spaces, close with ") ".
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

const PROMPT = "Summarise the benefits of a gateway. [[len:60]]";
/** With `askUsage`, a streaming client asks for the usage chunk itself: no frame is held back. */
const chat = (model: string, stream: boolean, askUsage = false) =>
  JSON.stringify({
    model,
    messages: [{ role: "user", content: PROMPT }],
    ...(stream ? { stream } : {}),
    ...(stream && askUsage ? { stream_options: { include_usage: true } } : {}),
  });
const messages = (model: string, stream: boolean) =>
  JSON.stringify({
    model,
    max_tokens: 256,
    messages: [{ role: "user", content: PROMPT }],
    ...(stream ? { stream } : {}),
  });
const GATEWAY = { authorization: "Bearer sk-bench", "x-interlingua-envelope": "bare" };

type Target = { url: string; pid: number };
type Targets = { gateway: Target; proxy: Target };

/** What each route sends, and to which target. */
interface Route {
  target: keyof Targets;
  /** For a gateway route: the proxy route of its upstream's protocol, and whether it translates. */
  versus?: { proxy: string; translated: boolean };
  path: string;
  headers: Record<string, string>;
  body: (stream: boolean) => string;
}
const CHAT = "/v1/chat/completions";
const MESSAGES = "/v1/messages";
const ROUTES: Record<string, Route> = {
  c2o: {
    target: "gateway",
    versus: { proxy: "proxy-o", translated: false },
    path: CHAT,
    headers: GATEWAY,
    body: (s) => chat("txtA-5", s),
  },
  c2ou: {
    target: "gateway",
    versus: { proxy: "proxy-o", translated: false },
    path: CHAT,
    headers: GATEWAY,
    body: (s) => chat("txtA-5", s, true),
  },
  m2a: {
    target: "gateway",
    versus: { proxy: "proxy-a", translated: false },
    path: MESSAGES,
    headers: GATEWAY,
    body: (s) => messages("txtB-sonnet-4-6", s),
  },
  m2o: {
    target: "gateway",
    versus: { proxy: "proxy-o", translated: true },
    path: MESSAGES,
    headers: GATEWAY,
    body: (s) => messages("txtA-5", s),
  },
  c2a: {
    target: "gateway",
    versus: { proxy: "proxy-a", translated: true },
    path: CHAT,
    headers: GATEWAY,
    body: (s) => chat("txtB-sonnet-4-6", s),
  },
  "proxy-o": {
    target: "proxy",
    path: CHAT,
    headers: { authorization: "Bearer sim-key" },
    body: (s) => chat("txtA-5", s),
  },
  "proxy-a": {
    target: "proxy",
    path: MESSAGES,
    headers: { "x-api-key": "sim-key", "anthropic-version": "2023-06-01" },
    body: (s) => messages("txtB-sonnet-4-6", s),
  },
};

/** A route's load against one set of targets, with the pid whose CPU it is charged to. */
function loadOf(name: string, route: Route, targets: Targets, stream: boolean) {
  const target = targets[route.target];
  const load: LoadCase = {
    name,
    url: target.url + route.path,
    headers: route.headers,
    body: route.body(stream),
  };
  return { ...load, pid: target.pid };
}

const sim = await serve(ROOT, flags.upstream);
// `--accounting on --log-level info` is the shipped default.
const gatewayFlags = flags.accounting === "on" ? [] : ["--no-accounting"];
const ours = {
  gateway: await serve(ROOT, "gateway", sim.url, ...gatewayFlags),
  proxy: await serve(ROOT, "proxy", sim.url),
};
const other =
  flags.against === undefined
    ? undefined
    : {
        gateway: await serve(flags.against, "gateway", sim.url, ...gatewayFlags),
        proxy: ours.proxy,
      };

const cases = flags.cases.split(",").flatMap((spec) => {
  const match = /^(.+)-([sn])$/.exec(spec.trim());
  const route = match === null ? undefined : ROUTES[match[1]!];
  if (match === null || route === undefined) {
    console.error(`gateway-cpu: unknown case ${spec}`);
    process.exit(2);
  }
  const stream = match[2] === "s";
  const versus = route.versus && { ...route.versus, proxy: `${route.versus.proxy}-${match[2]}` };
  const mine = { ...loadOf(spec, route, ours, stream), versus, stream };
  if (other === undefined || route.target === "proxy") return [mine];
  return [mine, { ...loadOf(`${spec} (against)`, route, other, stream), versus, stream }];
});

const options = {
  concurrency: Number(flags.concurrency),
  durationMs: Number(flags["duration-ms"]),
};
const runs = new Map<
  string,
  { target: number[]; sim: number[]; loadgen: number[]; perSecond: number[]; ttfb: number[] }
>();
// V8 keeps optimising a gateway for its first seconds of load: every case runs unmeasured first.
for (const load of cases) await runLoad(load, { ...options, warmupMs: 0 });
for (let rep = 0; rep < Number(flags.reps); rep++) {
  for (const load of cases) {
    // A short run first, so each measurement starts from a target that is already busy.
    await runLoad(load, { ...options, durationMs: 300, warmupMs: 0 });
    const before = [cpuTicks(load.pid), cpuTicks(sim.pid), cpuTicks("self")];
    const result = await runLoad(load, { ...options, warmupMs: 0 });
    const after = [cpuTicks(load.pid), cpuTicks(sim.pid), cpuTicks("self")];
    // Ticks are 10 ms: µs per call = ticks * 10_000 / calls.
    const perCall = (i: number) => ((after[i]! - before[i]!) * 10_000) / result.requests;
    if (result.errors > 0)
      console.error(`${load.name}: failures ${JSON.stringify(result.failures)}`);
    const run = runs.get(load.name) ?? {
      target: [],
      sim: [],
      loadgen: [],
      perSecond: [],
      ttfb: [],
    };
    run.target.push(perCall(0));
    run.sim.push(perCall(1));
    run.loadgen.push(perCall(2));
    run.perSecond.push(result.perSecond);
    run.ttfb.push(result.ttfbP50Ms);
    runs.set(load.name, run);
  }
}

// TTFB under load is mostly queueing (it follows req/s): the latency a gateway adds is read
// unloaded, one request at a time.
const ttfbAlone = new Map<string, number>();
for (const load of cases) {
  const result = await runLoad(load, { concurrency: 1, durationMs: 500, warmupMs: 100 });
  ttfbAlone.set(load.name, result.ttfbP50Ms);
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const us = (n: number) => n.toFixed(0).padStart(5);
console.log(
  `CPU per call in µs (median of ${flags.reps} runs of ${flags["duration-ms"]} ms at concurrency ${flags.concurrency}, after a warm-up run; upstream ${flags.upstream})`,
);
const width = Math.max(...cases.map((c) => c.name.length));
for (const [name, run] of runs) {
  console.log(
    `${name.padEnd(width)}  target ${us(median(run.target))}  upstream ${us(median(run.sim))}  load generator ${us(median(run.loadgen))}` +
      `  ${Math.round(median(run.perSecond)).toString().padStart(6)} req/s  TTFB ${median(run.ttfb).toFixed(2)} ms (alone ${ttfbAlone.get(name)!.toFixed(2)})  [target per run: ${run.target.map((n) => n.toFixed(0)).join(" ")}]`,
  );
}

// Issue 16's targets, gateway against the pass-through proxy of its upstream's protocol.
const LIMITS = { nonStream: 1.4, sameStream: 1.5, translatedStream: 2, ttfbMs: 1, perSecond: 0.7 };
const compared = cases.filter((c) => c.versus !== undefined && runs.has(c.versus.proxy));
if (compared.length > 0) {
  console.log(
    "\ngateway / pass-through (targets: CPU <= 1.4x non-stream, 1.5x same-format stream, 2x translated stream; TTFB alone <= +1 ms; req/s >= 0.70x)",
  );
  console.log(
    `${"case".padEnd(width)}  ${"versus".padEnd(9)}  CPU ratio (limit)  TTFB diff ms  req/s ratio  verdict`,
  );
  for (const load of compared) {
    const mine = runs.get(load.name)!;
    const proxy = runs.get(load.versus!.proxy)!;
    const limit = !load.stream
      ? LIMITS.nonStream
      : load.versus!.translated
        ? LIMITS.translatedStream
        : LIMITS.sameStream;
    const cpu = median(mine.target) / median(proxy.target);
    const ttfb = ttfbAlone.get(load.name)! - ttfbAlone.get(load.versus!.proxy)!;
    const perSecond = median(mine.perSecond) / median(proxy.perSecond);
    const misses = [
      cpu > limit ? "CPU" : "",
      ttfb > LIMITS.ttfbMs ? "TTFB" : "",
      perSecond < LIMITS.perSecond ? "req/s" : "",
    ].filter((m) => m !== "");
    console.log(
      `${load.name.padEnd(width)}  ${load.versus!.proxy.padEnd(9)}  ${cpu.toFixed(2).padStart(5)}x (${limit.toFixed(1)}x)  ${ttfb.toFixed(2).padStart(12)}  ${perSecond.toFixed(2).padStart(10)}x  ${misses.length === 0 ? "ok" : `over: ${misses.join(", ")}`}`,
    );
  }
}
process.exit(0);
