// A benchmark target in its own process, so load generator, target and simulator do not share
// an event loop: `node serve.ts sim`, `node serve.ts static` (precomputed replies, next to no
// CPU: see static-upstream.ts), `node serve.ts proxy <upstream>`, `node serve.ts gateway
// <upstream>`. Prints the target's URL on its first stdout line and runs until killed or until
// its stdin closes (so a parent that dies takes it along). Exits cleanly on SIGTERM/SIGINT, which
// lets `node --cpu-prof serve.ts gateway ...` write its profile. The gateway keeps its database in
// a fresh temporary directory, removed on exit, so runs do not grow one database between them;
// `serve.ts gateway <simulator> --no-accounting` turns billing off to measure what it costs;
// `--limited` keeps it on with a limited token of a limited user (holds taken on both), the
// realistic case; without either flag the token and user are unlimited.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProviderSim } from "@interlingua/provider-sim";
import { pino } from "pino";
import { validateConfig } from "../src/config/load-config.ts";
import { simulatedChannels } from "../src/config/simulated-channels.ts";
import { createLogger } from "../src/log/logger.ts";
import { startGateway } from "../src/start-gateway.ts";
import { startPassthroughProxy } from "./passthrough-proxy.ts";
import { startStaticUpstream } from "./static-upstream.ts";

export const BENCH_KEY = "sk-bench";
// Far more than any run spends, well below 2^53: limited, but never refused.
const LIMITED_QUOTA = 1_000_000_000_000_000;

const [kind, upstream = "", flag] = process.argv.slice(2);

const targets: Record<string, () => Promise<{ url: string }>> = {
  sim: () => startProviderSim({ port: 0, record: false }),
  static: () => startStaticUpstream(),
  proxy: () => startPassthroughProxy(upstream),
  gateway: async () => {
    const dir = mkdtempSync(join(tmpdir(), "interlingua-bench-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    const config = validateConfig({
      listen: { port: 0 },
      database_url: `sqlite:${join(dir, "bench.db")}`,
      files_dir: join(dir, "files"),
      ...(flag === "--limited"
        ? {
            users: [{ id: "bench", quota: LIMITED_QUOTA }],
            tokens: [{ key: BENCH_KEY, user: "bench", quota: LIMITED_QUOTA }],
          }
        : {
            users: [{ id: "bench", unlimited: true }],
            tokens: [{ key: BENCH_KEY, user: "bench", unlimited: true }],
          }),
      channels: simulatedChannels(upstream),
    });
    if (!config.ok) throw new Error(config.errors.join("\n"));
    return startGateway(config.config, {
      // BENCH_LOG_LEVEL=info measures the shipped default (a request log line per call): lines
      // are made and written in full, to /dev/null, since stdout carries the URL.
      logger:
        process.env["BENCH_LOG_LEVEL"] === undefined
          ? createLogger({ level: "warn", traceIds: config.config.tracing.enabled })
          : createLogger(
              { level: process.env["BENCH_LOG_LEVEL"], traceIds: config.config.tracing.enabled },
              pino.destination({ dest: "/dev/null", sync: false }),
            ),
      accounting: flag !== "--no-accounting",
    });
  },
};

const start = targets[kind ?? ""];
if (start === undefined) {
  console.error("usage: serve.ts sim | static | proxy <upstream> | gateway <upstream>");
  process.exit(2);
}
const target = await start();
console.log(target.url);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(0));
process.stdin.on("end", () => process.exit(0)).resume();
