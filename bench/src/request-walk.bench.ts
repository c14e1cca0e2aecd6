// The files one request walks (issue 30: "a chat request enters at most 12 files"): the gateway
// and its simulator run in this process under V8's precise coverage; after a warm-up, the
// counters are reset, one request is sent and read to its end, and every gateway source file in
// which any function ran is listed (work done for the request after its reply, such as the usage
// log, is included: the run waits --settle-ms); the request's own path (http, contract, pipeline,
// routing, upstream, stream) is counted apart from the services it calls. Packages are counted
// apart, by bundle, since they are imported built. Accounting on, info logs to /dev/null (the shipped defaults).
//   cd bench && node src/request-walk.bench.ts [--cases c2o-n,c2o-s,c2a-n] [--list]
//     [--root ../../other-checkout] [--against ../../other-checkout]   (after `pnpm build`)
// `--root` walks another checkout's gateway instead; `--against` walks it too, after this one.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";

const { values: flags } = parseArgs({
  options: {
    cases: { type: "string", default: "c2o-n,c2o-s,c2a-n,c2a-s" },
    root: { type: "string" },
    against: { type: "string" },
    list: { type: "boolean", default: false },
    "settle-ms": { type: "string", default: "300" },
  },
});

const root = resolve(flags.root ?? fileURLToPath(new URL("../..", import.meta.url)));
const at = (path: string) => pathToFileURL(join(root, path)).href;

interface WalkCase {
  readonly path: string;
  readonly model: string;
  readonly stream: boolean;
}
/** Chat to an OpenAI channel (same format) and to an Anthropic one (translated), whole or streamed. */
const CASES: Record<string, WalkCase> = {
  "c2o-n": { path: "/v1/chat/completions", model: "txtA-5", stream: false },
  "c2o-s": { path: "/v1/chat/completions", model: "txtA-5", stream: true },
  "c2a-n": { path: "/v1/chat/completions", model: "txtB-sonnet-4-6", stream: false },
  "c2a-s": { path: "/v1/chat/completions", model: "txtB-sonnet-4-6", stream: true },
};

const { startProviderSim } = await import(at("apps/provider-sim/src/index.ts"));
const { validateConfig } = await import(at("apps/gateway/src/config/load-config.ts"));
const { simulatedChannels } = await import(at("apps/gateway/src/config/simulated-channels.ts"));
const { createLogger } = await import(at("apps/gateway/src/log/logger.ts"));
const { startGateway } = await import(at("apps/gateway/src/start-gateway.ts"));

/** Folders that carry a request from its handler to the upstream and back. */
const PATH_FOLDERS = new Set(["http", "contract", "pipeline", "routing", "upstream", "stream"]);

const KEY = "sk-walk";
const dir = mkdtempSync(join(tmpdir(), "interlingua-walk-"));
const sim = await startProviderSim({ port: 0, record: false });
const config = validateConfig({
  listen: { host: "127.0.0.1", port: 0 },
  database_url: `sqlite:${join(dir, "walk.db")}`,
  files_dir: join(dir, "files"),
  users: [{ id: "walk", quota: 1_000_000_000_000 }],
  tokens: [{ key: KEY, user: "walk", quota: 1_000_000_000_000 }],
  channels: simulatedChannels(sim.url),
});
if (!config.ok) throw new Error(config.errors.join("\n"));
const gateway = await startGateway(config.config, {
  // Lines are made and written in full (pino's destination is any stream with `write`).
  logger: createLogger({ level: "info" }, { write: (_line: string) => true }),
});

async function send(walk: WalkCase): Promise<void> {
  const response = await fetch(`${gateway.url}${walk.path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: walk.model,
      stream: walk.stream,
      max_tokens: 64,
      messages: [{ role: "user", content: "Say hello." }],
    }),
    signal: AbortSignal.timeout(30_000),
  });
  await response.text();
  if (response.status !== 200) throw new Error(`${walk.model}: HTTP ${response.status}`);
}

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });

const gatewaySrc = `${at("apps/gateway/src")}/`;
const packagesDir = `${at("packages")}/`;
try {
  for (const name of flags.cases.split(",")) {
    const walk = CASES[name];
    if (walk === undefined) throw new Error(`unknown case ${name}`);
    for (let i = 0; i < 3; i++) await send(walk);
    await new Promise((r) => setTimeout(r, Number(flags["settle-ms"])));
    await session.post("Profiler.takePreciseCoverage"); // resets the counters
    await send(walk);
    await new Promise((r) => setTimeout(r, Number(flags["settle-ms"])));
    const { result } = await session.post("Profiler.takePreciseCoverage");
    const ran = (url: string) =>
      result.some(
        (script) => script.url === url && script.functions.some((f) => f.ranges[0]!.count > 0),
      );
    const urls = [...new Set(result.map((s) => s.url))].filter(ran);
    const own = urls.filter((u) => u.startsWith(gatewaySrc)).map((u) => u.slice(gatewaySrc.length));
    const bundles = urls
      .filter((u) => u.startsWith(packagesDir))
      .map((u) => relative(fileURLToPath(packagesDir), fileURLToPath(u)));
    // The "from the handler to the upstream and back" is the request's own path; the
    // services it calls on the way (auth, billing, storage, logs, limits) are counted apart.
    const path = own.filter((file) => PATH_FOLDERS.has(file.split("/")[0] ?? "")).length;
    console.log(
      `${name.padEnd(6)} gateway files ${String(own.length).padStart(3)} (request path ${path}, services ${own.length - path}), package bundles ${bundles.length}`,
    );
    if (flags.list) for (const file of own.sort()) console.log(`         ${file}`);
  }
} finally {
  await session.post("Profiler.stopPreciseCoverage");
  session.disconnect();
  await gateway.close();
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
}
if (flags.against !== undefined) {
  const args = ["--root", resolve(flags.against), "--cases", flags.cases];
  const other = execFileSync(process.execPath, [fileURLToPath(import.meta.url), ...args], {
    encoding: "utf8",
  });
  for (const line of other.trimEnd().split("\n")) console.log(`${line} (against)`);
}
