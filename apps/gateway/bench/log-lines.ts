// The measuring half of bench/src/log-line.bench.ts (here, where pino resolves).
import { resolve } from "node:path";
import { keyRedactor } from "@interlingua/errors";
import pino, { type DestinationStream, type Logger } from "pino";
import * as loggerModule from "../src/log/logger.ts";
import * as requestLogModule from "../src/log/request-log.ts";

const ROUNDS = 5;
const LINES = 100_000;
// Random-looking, as channel keys are: a key sharing eight characters with the line (an
// "upstream" in it once did) redacts part of it and measures another line.
const redactor = keyRedactor([
  "sk-proj-Q7xv2LmN9pRt4WkZ8yHc3FbJ6dGs1aEu",
  "AIzaSyD4f8Kq2Lm9Np3Rs7Tv1Wx5Yz0Bc6De8Gh",
]);

/** The log modules of one checkout: this one, or another's to compare with. */
interface LogModules {
  createLogger: (
    options: { level: string; traceIds: boolean },
    destination: DestinationStream,
  ) => Logger;
  redactingLogger: (logger: Logger, redact: (text: string) => string) => Logger;
  requestLog: typeof requestLogModule.requestLog;
}

const loggerAt = (modules: LogModules, level: string) =>
  modules.redactingLogger(
    modules.createLogger(
      { level, traceIds: false },
      pino.destination({ dest: "/dev/null", sync: false }),
    ),
    redactor.redact,
  );

const summary = {
  model: "txtA-5",
  channel: "openai-main",
  protocol: "openai",
  upstreamModel: "txtA-5-2025-08-07",
  sameFormat: true,
  stream: false,
  attempts: [{ channel: "openai-main", status: 200, ms: 41 }],
};
const usage = {
  inputTokens: 24,
  outputTokens: 60,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
};
type Log = ReturnType<typeof requestLogModule.requestLog>;
const LINES_OF: Record<string, (log: Log) => void> = {
  "request completed": (log) =>
    log.info({ ...summary, status: 200, usage, warnings: [], ms: 42 }, "request completed"),
  "stream completed": (log) =>
    log.info(
      {
        ...summary,
        stream: true,
        status: 200,
        usage,
        complete: true,
        clientDisconnected: false,
        finishReason: "stop",
        outputChars: 240,
        warnings: [],
        ms: 310,
      },
      "stream completed",
    ),
};

/** CPU µs per line of one round. */
function round(modules: LogModules, logger: Logger, write: (log: Log) => void) {
  const started = process.cpuUsage();
  for (let i = 0; i < LINES; i++) {
    // As a request does: its log with fixed fields, then the token's name added.
    write(
      modules.requestLog(logger, { requestId: `req_${i}`, endpoint: "chat" }).with({ token: "t" }),
    );
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / LINES;
}

/**
 * Prints the CPU per line at info and at warn; with `against` (another checkout's root), its
 * log modules are measured in the same run, rounds taken in turn, each side first in every other.
 */
export async function printLogLineCosts(against?: string): Promise<void> {
  const sides: [string, LogModules][] = [["", { ...loggerModule, ...requestLogModule }]];
  if (against !== undefined) {
    const root = resolve(against, "apps/gateway/src/log");
    const other = {
      ...(await import(`${root}/logger.ts`)),
      ...(await import(`${root}/request-log.ts`)),
    } as LogModules;
    sides.push([" (against)", other]);
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`CPU per request log line (median of ${ROUNDS} rounds of ${LINES} lines)`);
  for (const level of ["info", "warn"]) {
    for (const [name, write] of Object.entries(LINES_OF)) {
      // Fresh loggers for each line: a destination holds every line until the loop yields.
      const loggers = sides.map(([, modules]) => loggerAt(modules, level));
      const rounds = sides.map((): number[] => []);
      for (let r = 0; r <= ROUNDS; r++) {
        for (let k = 0; k < sides.length; k++) {
          const side = (k + r) % sides.length;
          const cost = round(sides[side]![1], loggers[side]!, write);
          if (r > 0) rounds[side]!.push(cost);
        }
      }
      sides.forEach(([label], side) => {
        const row = `${level.padEnd(5)} ${`${name}${label}`.padEnd(28)}`;
        console.log(`${row} ${median(rounds[side]!).toFixed(2)} µs`);
      });
    }
  }
}
