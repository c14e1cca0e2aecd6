import { Writable } from "node:stream";
import { invalidRequest, unavailable } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { createLogger } from "../log/logger.ts";
import { answerThrown } from "./route-envelope.ts";

/** A logger writing each line into `lines`, parsed. */
function captured() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger({ level: "info", traceIds: false }, sink) };
}

const at = {
  requestId: "req_1",
  url: new URL("http://gateway.test/v1/messages?key=sk-secret"),
  errors: "messages" as const,
  endpoint: "messages",
};

describe("answerThrown: the one answer to a thrown error", () => {
  it("answers a refusal in the route's envelope and logs it at info", async () => {
    const { lines, logger } = captured();
    const res = answerThrown(logger, invalidRequest("max_tokens: required", "max_tokens"), at);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: expect.stringContaining("max_tokens") },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: "request refused",
      status: 400,
      requestId: "req_1",
      endpoint: "messages",
    });
    expect(JSON.stringify(lines[0])).not.toContain("sk-secret");
  });

  it("logs a 5xx refusal at error, with its cause", () => {
    const { lines, logger } = captured();
    const cause = new Error("database is down");
    const res = answerThrown(logger, unavailable("storage unavailable", { cause }), at);
    expect(res.status).toBe(503);
    expect(lines[0]).toMatchObject({ level: 50, msg: "request refused", status: 503 });
    expect(JSON.stringify(lines[0])).toContain("database is down");
  });

  it("answers a bug 500 and logs it whole; a blown stack on a deep body is a 400", async () => {
    const { lines, logger } = captured();
    const bug = answerThrown(logger, new TypeError("x is undefined"), at);
    expect(bug.status).toBe(500);
    expect(await bug.text()).not.toContain("x is undefined");
    expect(lines[0]).toMatchObject({ level: 50, msg: "unhandled error" });
    const deep = answerThrown(logger, new RangeError("Maximum call stack size exceeded"), at);
    expect(deep.status).toBe(400);
    expect(lines[1]).toMatchObject({ level: 30, msg: "request refused", status: 400 });
  });
});
