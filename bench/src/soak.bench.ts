// A bounded soak of the gateway (issue 15): mixed traffic for a fixed time against a gateway in a
// child process with the provider simulator behind it, printing the child's RSS, V8 heap, open
// handles and the upstream pool's connections over time. The traffic mixes every client format,
// streams and not, clients that leave mid-stream or while the upstream hangs, upstream faults
// (5xx, resets, malformed frames), and bodies the gateway must refuse. Flat RSS and handles (after
// warm-up) and an empty pool at the end are what it is for.
//
//   cd bench && pnpm exec node src/soak.bench.ts [--minutes 10] [--concurrency 32] [--every 10]
import { type ChildProcess, fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const KEY = "sk-soak";
const UPSTREAM_KEY = "soak-upstream-key";

interface Sample {
  rss: number;
  heapUsed: number;
  handles: number;
  upstreamRunning: number;
  upstreamConnected: number;
}

/** The gateway and the simulator, in this process; answers "sample" over IPC. */
async function runChild(): Promise<void> {
  const { startProviderSim } = await import("../../apps/provider-sim/src/index.ts");
  const { validateConfig } = await import("../../apps/gateway/src/config/load-config.ts");
  const { createLogger } = await import("../../apps/gateway/src/log/logger.ts");
  const { startGateway } = await import("../../apps/gateway/src/start-gateway.ts");
  const dir = mkdtempSync(join(tmpdir(), "interlingua-soak-"));
  process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
  // The simulator keeps every request it receives unless told not to; a soak would grow it.
  const sim = await startProviderSim({ port: 0, keys: [UPSTREAM_KEY], record: false });
  const channel = (
    name: string,
    protocol: "openai" | "anthropic" | "gemini",
    models: string[],
  ) => ({
    name,
    protocol,
    base_url: sim.url,
    api_key: UPSTREAM_KEY,
    models,
  });
  const config = validateConfig({
    listen: { port: 0 },
    database_url: `sqlite:${join(dir, "soak.db")}`,
    files_dir: join(dir, "files"),
    users: [{ id: "soak", quota: 1_000_000_000_000 }],
    tokens: [{ key: KEY, user: "soak", quota: 1_000_000_000_000 }],
    channels: [
      channel("oa", "openai", ["txtA-5"]),
      channel("an", "anthropic", ["txtB-sonnet-4-6"]),
      channel("ge", "gemini", ["txtC-2.5-pro"]),
      // Failing on purpose: its own model, so its open circuit never turns the others away.
      channel("faulty", "openai", ["txtD-v3.2-exp"]),
    ],
  });
  if (!config.ok) throw new Error(config.errors.join("\n"));
  const gateway = await startGateway(config.config, { logger: createLogger({ level: "error" }) });
  const origin = new URL(sim.url).origin;
  process.on("message", (message) => {
    if (message !== "sample") return;
    const stats = gateway.services.agent.stats as Record<
      string,
      { running: number; connected: number }
    >;
    const memory = process.memoryUsage();
    const sample: Sample = {
      rss: memory.rss,
      heapUsed: memory.heapUsed,
      handles: process.getActiveResourcesInfo().length,
      upstreamRunning: stats[origin]?.running ?? 0,
      upstreamConnected: stats[origin]?.connected ?? 0,
    };
    process.send?.(sample);
  });
  process.send?.({ url: gateway.url });
}

type Kind = { name: string; weight: number; run: (url: string) => Promise<number> };

const headers = { authorization: `Bearer ${KEY}`, "content-type": "application/json" };

const chatBody = (text: string, stream: boolean, model = "txtA-5") =>
  JSON.stringify({ model, messages: [{ role: "user", content: text }], stream });

/** A request read to its end; the status. */
async function whole(url: string, path: string, body: string): Promise<number> {
  const res = await fetch(url + path, {
    method: "POST",
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  await res.arrayBuffer();
  return res.status;
}

/** A request the client leaves: after its first chunk, or after `ms` when nothing comes. */
async function leave(url: string, path: string, body: string, ms: number): Promise<number> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const res = await fetch(url + path, {
      method: "POST",
      headers,
      body,
      signal: controller.signal,
    });
    await res.body?.getReader().read();
    controller.abort();
    return 499;
  } catch {
    return 499;
  } finally {
    clearTimeout(timer);
  }
}

const KINDS: Kind[] = [
  {
    name: "chat",
    weight: 6,
    run: (u) => whole(u, "/v1/chat/completions", chatBody("[[len:20]] hi", false)),
  },
  {
    name: "chat stream",
    weight: 6,
    run: (u) => whole(u, "/v1/chat/completions", chatBody("[[len:60]] hi", true)),
  },
  {
    name: "messages stream (translated)",
    weight: 4,
    run: (u) =>
      whole(
        u,
        "/v1/messages",
        JSON.stringify({
          model: "txtC-2.5-pro",
          max_tokens: 256,
          stream: true,
          messages: [{ role: "user", content: "[[len:40]] hi" }],
        }),
      ),
  },
  {
    name: "native stream",
    weight: 3,
    run: (u) =>
      whole(
        u,
        "/v1beta/models/txtC-2.5-pro:streamGenerateContent?alt=sse",
        JSON.stringify({ contents: [{ role: "user", parts: [{ text: "[[len:40]] hi" }] }] }),
      ),
  },
  {
    name: "responses",
    weight: 2,
    run: (u) =>
      whole(
        u,
        "/v1/responses",
        JSON.stringify({
          model: "txtB-sonnet-4-6",
          input: "[[tool]] hi",
          tools: [
            {
              type: "function",
              name: "f",
              description: "d",
              parameters: { type: "object", properties: {} },
            },
          ],
        }),
      ),
  },
  {
    name: "leaves a dripping stream",
    weight: 3,
    run: (u) =>
      leave(
        u,
        "/v1/chat/completions",
        chatBody("[[fault:chunk-delay=50]] [[len:200]] drip", true),
        5000,
      ),
  },
  {
    name: "leaves a hung call",
    weight: 2,
    run: (u) =>
      leave(
        u,
        "/v1/messages",
        JSON.stringify({
          model: "txtB-sonnet-4-6",
          max_tokens: 64,
          messages: [{ role: "user", content: "[[fault:hang]] x" }],
        }),
        200,
      ),
  },
  {
    name: "upstream 5xx",
    weight: 1,
    run: (u) =>
      whole(u, "/v1/chat/completions", chatBody("[[fault:status=500]] x", false, "txtD-v3.2-exp")),
  },
  {
    name: "reset mid-stream",
    weight: 1,
    run: (u) =>
      whole(
        u,
        "/v1/chat/completions",
        chatBody("[[fault:reset-after=3]] [[len:60]] x", true, "txtB-sonnet-4-6"),
      ),
  },
  {
    name: "malformed frame",
    weight: 1,
    run: (u) =>
      whole(u, "/v1/chat/completions", chatBody("[[fault:malformed=2]] [[len:30]] x", true)),
  },
  {
    name: "bad body",
    weight: 1,
    run: (u) =>
      whole(u, "/v1/chat/completions", `{"model":"txtA-5","messages":${"[".repeat(5000)}`),
  },
];

const TOTAL_WEIGHT = KINDS.reduce((s, k) => s + k.weight, 0);
const pick = (): Kind => {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const kind of KINDS) {
    r -= kind.weight;
    if (r < 0) return kind;
  }
  return KINDS[0]!;
};

async function runParent(): Promise<void> {
  const { values } = parseArgs({
    options: {
      minutes: { type: "string", default: "10" },
      concurrency: { type: "string", default: "32" },
      every: { type: "string", default: "10" },
    },
  });
  const durationMs = Number(values.minutes) * 60_000;
  const concurrency = Number(values.concurrency);
  const everyMs = Number(values.every) * 1000;
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child"], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const url = await new Promise<string>((resolve) =>
    child.once("message", (m) => resolve((m as { url: string }).url)),
  );
  const sample = () =>
    new Promise<Sample>((resolve) => {
      child.once("message", (m) => resolve(m as Sample));
      child.send("sample");
    });
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

  const statuses = new Map<number, number>();
  let done = 0;
  let fivexx = 0;
  let errors = 0;
  const end = Date.now() + durationMs;
  const started = Date.now();
  const worker = async () => {
    while (Date.now() < end) {
      let status: number;
      try {
        status = await pick().run(url);
      } catch (error) {
        status = 0;
        if (errors++ < 3) console.error(String(error), (error as Error).cause);
      }
      done++;
      if (status >= 500 && status !== 502 && status !== 503) fivexx++;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  console.log(`soak: ${values.minutes} min, ${concurrency} concurrent clients, gateway ${url}`);
  console.log("   t(s)  requests    rps   rss(MB)  heap(MB)  handles  upstream running/connected");
  const rows: (Sample & { t: number })[] = [];
  let lastDone = 0;
  const print = async () => {
    const s = await sample();
    const t = Math.round((Date.now() - started) / 1000);
    rows.push({ ...s, t });
    const rps = ((done - lastDone) / (everyMs / 1000)).toFixed(0);
    lastDone = done;
    console.log(
      `${String(t).padStart(7)} ${String(done).padStart(9)} ${rps.padStart(6)} ${mb(s.rss).padStart(9)} ${mb(s.heapUsed).padStart(9)} ${String(s.handles).padStart(8)}   ${s.upstreamRunning}/${s.upstreamConnected}`,
    );
  };
  const timer = setInterval(() => void print(), everyMs);
  await Promise.all(Array.from({ length: concurrency }, worker));
  clearInterval(timer);
  // Abandoned calls are cancelled within a second: after a short pause nothing runs upstream.
  await new Promise((r) => setTimeout(r, 2000));
  await print();
  const warm = rows.filter((r) => r.t >= Math.min(60, durationMs / 4000));
  const first = warm[0] ?? rows[0]!;
  const last = rows.at(-1)!;
  console.log(
    `statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}; unexpected 5xx: ${fivexx}`,
  );
  console.log(
    `after warm-up (t=${first.t}s) to the end: rss ${mb(first.rss)} -> ${mb(last.rss)} MB (max ${mb(Math.max(...warm.map((r) => r.rss)))}), heap ${mb(first.heapUsed)} -> ${mb(last.heapUsed)} MB, handles ${first.handles} -> ${last.handles}, upstream running at the end ${last.upstreamRunning}`,
  );
  child.kill();
}

// Last: the parent's tables above must exist before it runs.
if (process.argv[2] === "--child") await runChild();
else await runParent();
