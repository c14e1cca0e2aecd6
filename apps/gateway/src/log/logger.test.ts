import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, maskCredentialMembers, redactingLogger } from "./logger.ts";

/** A logger writing each line into `lines`, synchronously. */
function captured() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger({ level: "info", traceIds: false }, sink) };
}

describe("the log's credential nets", () => {
  it("masks a credential-named member at any depth, and nothing else", () => {
    const { lines, logger } = captured();
    logger.info(
      {
        key: "top-secret-1",
        headers: { authorization: "Bearer tok-2", "x-goog-api-key": "goog-3" },
        channel: { settings: { api_key: "deep-4", apiKey: "deep-5", monkey: "banana" } },
        note: 'he said "key":"not a member"',
      },
      "hello",
    );
    const line = lines.join("");
    for (const secret of ["top-secret-1", "tok-2", "goog-3", "deep-4", "deep-5"]) {
      expect(line).not.toContain(secret);
    }
    const parsed = JSON.parse(line);
    expect(parsed.channel.settings).toEqual({
      api_key: "[redacted]",
      apiKey: "[redacted]",
      monkey: "banana",
    });
    // Quotes inside a string are escaped on the line: no member starts there.
    expect(parsed.note).toBe('he said "key":"not a member"');
    expect(parsed.msg).toBe("hello");
  });

  it("a masked value with escaped quotes in it leaves valid JSON", () => {
    const line = JSON.stringify({ a: { key: 'x"y\\"z' }, b: 1 });
    expect(JSON.parse(maskCredentialMembers(line))).toEqual({ a: { key: "[redacted]" }, b: 1 });
  });

  it("the channel-key hook runs after the nets, on every line of a child", () => {
    const { lines, logger } = captured();
    const log = redactingLogger(logger, (text) => text.replaceAll("chan-key-9", "[gone]"));
    log.child({ requestId: "r1" }).info({ nested: { api_key: "x" } }, "upstream said chan-key-9");
    const parsed = JSON.parse(lines.join(""));
    expect(parsed.msg).toBe("upstream said [gone]");
    expect(parsed.nested.api_key).toBe("[redacted]");
    expect(parsed.requestId).toBe("r1");
  });
});
