import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/log/logger.ts";
import { eventually, postJson, type Stack, startStack } from "./stack.ts";
import { REQUEST } from "./wire.ts";

// What runs after a reply went out (its charge, its span, its log line) has no request left to
// fail. A throw there used to reach the process as an uncaught exception (a whole reply) or an
// unhandled rejection (a stream): either ends the instance and every stream it carries. Here the
// first completion line the log is asked to write throws, as a destination that broke would.

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** A log that throws once, on the first line carrying `message`; keeps every other line. */
function breakingLog(message: string) {
  const lines: Record<string, unknown>[] = [];
  let broken = false;
  const logger = createLogger(
    { level: "info" },
    {
      write(line: string) {
        const parsed = JSON.parse(line) as Record<string, unknown>;
        if (!broken && parsed["msg"] === message) {
          broken = true;
          throw new Error("log destination failed");
        }
        lines.push(parsed);
      },
    },
  );
  return { logger, lines, thrown: () => broken };
}

describe("a throw after the reply went out", () => {
  it.each([
    { stream: false, message: "request completed", what: "request" },
    { stream: true, message: "stream completed", what: "stream" },
  ])("stream $stream: logged as an error, the instance serves on", async (kase) => {
    const log = breakingLog(kase.message);
    stack = await startStack({}, { logger: log.logger });
    const { path, body } = REQUEST.chat({ model: "txtA-5", text: "hello", stream: kase.stream });
    const url = `${stack.gateway.url}${path}`;
    const first = await postJson(url, body);
    expect(first.status).toBe(200);
    await eventually(() => log.thrown());
    await eventually(() =>
      log.lines.some((l) => l["msg"] === `settling a ${kase.what} after its reply failed`),
    );
    const failure = log.lines.find((l) => l["level"] === 50)!;
    expect((failure["err"] as { message: string }).message).toBe("log destination failed");
    // Still serving: the next call is answered and its completion line written.
    const second = await postJson(url, body);
    expect(second.status).toBe(200);
    await eventually(() => log.lines.some((l) => l["msg"] === kase.message));
  });
});
