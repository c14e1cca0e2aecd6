import { Writable } from "node:stream";
import { keyRedactor } from "@interlingua/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { takesShortcut, writeInfoLine } from "./fields-line.ts";
import { createLogger, type GatewayLoggerOptions, redactingLogger } from "./logger.ts";

const CHANNEL_KEY = "sk-proj-Q7xv2LmN9pRt4WkZ8yHc3FbJ6dGs1aEu";

/** The gateway's logger (credential nets, channel-key hook) writing into `lines`, at a fixed time. */
function captured(options: GatewayLoggerOptions = {}) {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const base = createLogger(
    { level: "info", traceIds: false, timestamp: () => ',"time":1', ...options },
    sink,
  );
  const logger = redactingLogger(base, keyRedactor([CHANNEL_KEY]).redact);
  /** The line pino writes for `fields`, then the shortcut's. */
  const both = (fields: Record<string, unknown>, message: string): [string, string] => {
    logger.info(fields, message);
    writeInfoLine(logger, fields, message);
    return [lines.at(-2)!, lines.at(-1)!];
  };
  return { logger, both };
}

const completed = {
  requestId: "req_1",
  endpoint: "chat",
  token: "t",
  model: "txtA-5",
  channel: "openai-main",
  upstreamModel: "txtA-5-2025-08-07",
  stream: false,
  attempts: [{ channel: "openai-main", status: 200, ms: 41 }],
  status: 200,
  usage: { inputTokens: 24, outputTokens: 60 },
  warnings: [],
  ms: 42,
};

describe("an info line's fields in one JSON.stringify", () => {
  it("is taken by the gateway's logger, and the line is pino's own", () => {
    const { logger, both } = captured();
    expect(takesShortcut(logger)).toBe(true);
    const [pino, shortcut] = both(completed, "request completed");
    expect(shortcut).toBe(pino);
    expect(JSON.parse(shortcut)).toMatchObject({ level: 30, service: "interlingua-gateway" });
  });

  it("writes what pino writes, for any fields", () => {
    const { both } = captured();
    // Lone surrogates aside (escaped here, raw from pino): "grapheme" strings have none.
    const text = fc.string({ unit: "grapheme", maxLength: 120 });
    const name = fc.oneof(
      text,
      fc.constantFrom("msg", "level", "time", "0", "12", "key", "err", "headers", "apiKey"),
    );
    const leaf = fc.oneof(
      text,
      fc.constantFrom('q"uo\\te', "tab\there", "line\nbreak", "\u0001", "x".repeat(150)),
      fc.double(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.constant(() => 1),
      fc.date({ noInvalidDate: true }),
    );
    const value = fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(name, leaf));
    fc.assert(
      fc.property(fc.dictionary(name, value), text, (fields, message) => {
        const [pino, shortcut] = both(fields, message);
        expect(shortcut).toBe(pino);
      }),
    );
  });

  it("leaves to pino the fields it serialises or redacts, and values JSON cannot take", () => {
    const { both } = captured();
    const cases: Record<string, unknown>[] = [
      { ...completed, err: new Error("boom") },
      { ...completed, key: 123 },
      { ...completed, authorization: { scheme: "Bearer", token: "tok" } },
      { ...completed, headers: { "x-api-key": "abc" } },
      { ...completed, big: 10n },
      { ...completed, toJSON: () => "no" },
    ];
    for (const fields of cases) {
      const [pino, shortcut] = both(fields, "m");
      expect(shortcut).toBe(pino);
    }
    const [, withError] = both({ err: new Error("boom") }, "m");
    expect(JSON.parse(withError).err).toMatchObject({ type: "Error", message: "boom" });
    const [, withKey] = both({ key: 123, authorization: { token: "tok" } }, "m");
    expect(JSON.parse(withKey)).toMatchObject({ key: "[redacted]", authorization: "[redacted]" });
  });

  it("keeps the credential nets and the channel-key hook on the line", () => {
    const { both } = captured();
    const [, line] = both(
      { nested: { api_key: "deep-1" }, note: `upstream said ${CHANNEL_KEY}` },
      `quoting ${CHANNEL_KEY}`,
    );
    expect(line).not.toContain("deep-1");
    expect(line).not.toContain(CHANNEL_KEY.slice(8));
    expect(JSON.parse(line).nested.api_key).toBe("[redacted]");
  });

  it("is not taken by a logger whose lines a mixin reshapes, which writes pino's line", () => {
    const { logger, both } = captured({ mixin: () => ({ trace_id: "t1", requestId: "mixed" }) });
    expect(takesShortcut(logger)).toBe(false);
    const [pino, shortcut] = both(completed, "request completed");
    expect(shortcut).toBe(pino);
  });
});
