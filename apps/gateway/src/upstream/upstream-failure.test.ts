import { describe, expect, it } from "vitest";
import { upstreamFailureToError } from "./upstream-error.ts";
import { failureFromError, failurePolicy } from "./upstream-failure.ts";

describe("upstream failures", () => {
  it("retries 408, 429, 5xx, rejected channel keys, network errors and unreadable replies", () => {
    for (const status of [408, 429, 500, 502, 503, 529, 401, 403]) {
      expect(failurePolicy({ kind: "status", status, body: {} }).retry, String(status)).toBe(true);
    }
    for (const kind of ["timeout", "connection", "malformed"] as const) {
      expect(failurePolicy({ kind, message: "" }).retry).toBe(true);
    }
  });

  it("counts only 5xx, timeouts and connection errors against the channel's health", () => {
    for (const status of [500, 502, 503, 529]) {
      expect(failurePolicy({ kind: "status", status, body: {} }).health).toBe("unhealthy");
    }
    for (const kind of ["timeout", "connection"] as const) {
      expect(failurePolicy({ kind, message: "" }).health).toBe("unhealthy");
    }
    // Busy, a key it does not take, or a reply the gateway could not translate: not "down".
    for (const status of [408, 429, 401, 403]) {
      expect(failurePolicy({ kind: "status", status, body: {} }).health).toBe("neutral");
    }
    expect(failurePolicy({ kind: "malformed", message: "" }).health).toBe("neutral");
  });

  it("returns the caller's own mistakes without retrying", () => {
    for (const status of [400, 404, 413, 422]) {
      expect(failurePolicy({ kind: "status", status, body: {} })).toEqual({
        retry: false,
        health: "alive",
      });
    }
  });

  it("names undici timeouts as timeouts", () => {
    const error = Object.assign(new Error("Headers Timeout Error"), {
      code: "UND_ERR_HEADERS_TIMEOUT",
    });
    expect(failureFromError(error).kind).toBe("timeout");
    expect(
      failureFromError(Object.assign(new Error("refused"), { code: "ECONNREFUSED" })).kind,
    ).toBe("connection");
  });

  it("maps statuses for the client and never echoes the channel's key", () => {
    const openai = (status: number, message: string) =>
      upstreamFailureToError("openai", {
        kind: "status",
        status,
        body: { error: { message, type: "x" } },
      });
    expect(openai(429, "slow down").status).toBe(429);
    expect(openai(500, "boom").status).toBe(502);
    const auth = openai(401, "Incorrect API key provided: sk-proj-abcdefghijkl");
    expect(auth.status).toBe(502);
    expect(auth.message).not.toContain("sk-proj");
    expect(openai(400, "bad field").toJSON()).toMatchObject({ status: 400, message: "bad field" });
    expect(upstreamFailureToError("gemini", { kind: "timeout", message: "x" }).toJSON()).toEqual({
      status: 502,
      type: "bad_gateway",
      message: "upstream timed out",
    });
  });
});
