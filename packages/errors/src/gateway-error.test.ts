import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  badGateway,
  constructorsByStatus,
  internalError,
  invalidRequest,
  modelNotFound,
  notFound,
  payloadTooLarge,
  paymentRequired,
  permissionDenied,
  rateLimited,
  unauthenticated,
  unavailable,
} from "./constructors.js";
import { GatewayError, isGatewayError } from "./gateway-error.js";
import { gatewayErrorFieldsSchema } from "./gateway-error-schema.js";
import { gatewayStatuses } from "./gateway-status.js";
import { standardErrorTypes } from "./standard-error-type.js";
import { gatewayError } from "./testing.js";
import { toGatewayError } from "./to-gateway-error.js";

describe("constructors", () => {
  it.each([
    [invalidRequest("bad"), 400, "invalid_request_error"],
    [unauthenticated(), 401, "authentication_error"],
    [paymentRequired(), 402, "payment_required"],
    [permissionDenied(), 403, "permission_error"],
    [notFound(), 404, "not_found_error"],
    [payloadTooLarge(), 413, "invalid_request_error"],
    [rateLimited(), 429, "rate_limit_error"],
    [internalError(), 500, "server_error"],
    [badGateway(), 502, "bad_gateway"],
    [unavailable(), 503, "service_unavailable"],
  ])("builds %o with its row's status and type", (error, status, type) => {
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toBeInstanceOf(Error);
    expect([error.status, error.type]).toEqual([status, type]);
    expect(error.message).not.toBe("");
  });

  it("has one constructor per row", () => {
    for (const status of gatewayStatuses) {
      const error = constructorsByStatus[status]("m");
      expect([error.status, error.type, error.message]).toEqual([
        status,
        standardErrorTypes[status],
        "m",
      ]);
    }
  });

  it("names the field of an invalid request", () => {
    expect(invalidRequest("ttl must be 5m or 1h", "cache_control.ttl").toJSON()).toEqual({
      status: 400,
      type: "invalid_request_error",
      message: "ttl must be 5m or 1h",
      param: "cache_control.ttl",
    });
  });

  it("reports an unknown model with code model_not_found", () => {
    const error = modelNotFound("txtZ-9");
    expect([error.status, error.type, error.code, error.param]).toEqual([
      404,
      "not_found_error",
      "model_not_found",
      "model",
    ]);
    expect(error.message).toContain("txtZ-9");
  });

  it("quotes at most 256 characters of an unknown model id", () => {
    // A 30 MB model id would otherwise come back whole, in the reply and the request's log line.
    const error = modelNotFound(`txtZ-${"x".repeat(1_000_000)}`);
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain(`txtZ-${"x".repeat(251)}…\``);
  });

  it("carries retry advice", () => {
    expect(rateLimited("slow down", { retryAfterSeconds: 7 }).retryAfterSeconds).toBe(7);
  });
});

describe("GatewayError", () => {
  it("answers 500 for a status that is not an error status", () => {
    expect(new GatewayError({ status: 200, message: "x" }).status).toBe(500);
    expect(new GatewayError({ status: 404.5, message: "x" }).status).toBe(500);
  });

  it("defaults the type to the standard type of the status", () => {
    expect(new GatewayError({ status: 429, message: "x" }).type).toBe("rate_limit_error");
    expect(new GatewayError({ status: 418, message: "x" }).type).toBe("invalid_request_error");
    expect(new GatewayError({ status: 504, message: "x" }).type).toBe("server_error");
  });

  it("drops a retry delay that is not a duration", () => {
    expect(rateLimited("x", { retryAfterSeconds: Number.NaN }).retryAfterSeconds).toBeUndefined();
    expect(rateLimited("x", { retryAfterSeconds: -1 }).retryAfterSeconds).toBeUndefined();
  });

  it("serialises its public fields only", () => {
    const error = badGateway("upstream down", {
      cause: new Error("secret"),
      upstream: { protocol: "openai", status: 500, body: { key: "sk-secret" } },
    });
    const json = JSON.stringify(error);
    expect(JSON.parse(json)).toEqual({
      status: 502,
      type: "bad_gateway",
      message: "upstream down",
    });
    expect(json).not.toContain("secret");
    expect(error.upstream?.body).toEqual({ key: "sk-secret" });
  });

  it("toJSON passes its schema for any error", () => {
    fc.assert(
      fc.property(gatewayError, (error) => {
        expect(gatewayErrorFieldsSchema.parse(error.toJSON())).toEqual(error.toJSON());
      }),
    );
  });

  it("is recognised across copies of the class (the ESM and CJS builds)", () => {
    const foreign = Object.assign(new Error("x"), {
      [Symbol.for("@interlingua/errors.GatewayError")]: true,
    });
    expect(isGatewayError(foreign)).toBe(true);
    expect(isGatewayError(notFound())).toBe(true);
    expect(isGatewayError(new Error("x"))).toBe(false);
    expect(isGatewayError(null)).toBe(false);
    expect(isGatewayError({ status: 400 })).toBe(false);
  });
});

describe("toGatewayError", () => {
  it("keeps a GatewayError as it is", () => {
    const error = notFound("no such task");
    expect(toGatewayError(error)).toBe(error);
  });

  it("wraps anything else as a 500 that says nothing of what was thrown", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), (secret) => {
        const thrown = typeof secret === "string" ? new Error(secret) : secret;
        const error = toGatewayError(thrown);
        expect(error.toJSON()).toEqual({
          status: 500,
          type: "server_error",
          message: "Internal server error",
        });
        expect(error.cause).toBe(thrown);
      }),
    );
  });

  it("does not leak a stack or a connection string", () => {
    const error = toGatewayError(new TypeError("connect postgres://admin:hunter2@db failed"));
    expect(JSON.stringify(error)).not.toMatch(/hunter2|postgres|at /);
  });
});
