import { type UpstreamProtocol, upstreamProtocolSchema } from "@interlingua/core-types";
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

  it("reads each protocol's error body with that protocol's reader", () => {
    // One body per protocol that only its own reader understands: a 429 whose kind says 402.
    const bodies: Record<UpstreamProtocol, unknown> = {
      openai: { error: { message: "no credit", type: "x", code: "insufficient_quota" } },
      "openai-responses": { error: { message: "no credit", code: "insufficient_quota" } },
      anthropic: { type: "error", error: { type: "billing_error", message: "no credit" } },
      gemini: {
        error: {
          code: 429,
          message: "no credit",
          details: [
            { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_EXPIRED" },
          ],
        },
      },
    };
    for (const protocol of upstreamProtocolSchema.options) {
      const error = upstreamFailureToError(protocol, {
        kind: "status",
        status: 429,
        body: bodies[protocol],
        retryAfter: "7",
      });
      expect(error.toJSON(), protocol).toEqual({
        status: 502,
        type: "bad_gateway",
        message: "Upstream provider error (429): no credit",
        retryAfterSeconds: 7,
      });
      expect(error.upstream, protocol).toEqual({ protocol, status: 429, body: bodies[protocol] });
    }
  });
});
