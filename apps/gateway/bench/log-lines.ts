// The measuring half of bench/src/log-line.bench.ts (here, where pino resolves).
import { keyRedactor } from "@interlingua/errors";
import pino from "pino";
import { createLogger, redactingLogger } from "../src/log/logger.ts";
import { requestLog } from "../src/log/request-log.ts";

const ROUNDS = 5;
const LINES = 100_000;
const redactor = keyRedactor([
  "sk-bench-upstream-0123456789abcdef",
  "AIzaBenchKey-0123456789abcdefghij",
]);
const loggerAt = (level: string) =>
  redactingLogger(
    createLogger({ level, traceIds: false }, pino.destination({ dest: "/dev/null", sync: false })),
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
const LINES_OF: Record<string, (log: ReturnType<typeof requestLog>) => void> = {
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

export function printLogLineCosts(): void {
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  console.log(`CPU per request log line (median of ${ROUNDS} rounds of ${LINES} lines)`);
  for (const level of ["info", "warn"]) {
    const logger = loggerAt(level);
    for (const [name, write] of Object.entries(LINES_OF)) {
      const rounds: number[] = [];
      for (let round = 0; round <= ROUNDS; round++) {
        const started = process.cpuUsage();
        for (let i = 0; i < LINES; i++) {
          // As a request does: its log with fixed fields, then the token's name added.
          write(
            requestLog(logger, { requestId: `req_${i}`, endpoint: "chat" }).with({ token: "t" }),
          );
        }
        const used = process.cpuUsage(started);
        if (round > 0) rounds.push((used.user + used.system) / LINES);
      }
      console.log(`${level.padEnd(5)} ${name.padEnd(18)} ${median(rounds).toFixed(2)} µs`);
    }
  }
}
