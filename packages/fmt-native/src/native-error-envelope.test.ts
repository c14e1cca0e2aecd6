import { readFileSync } from "node:fs";
import {
  type GatewayError,
  modelNotFound,
  rateLimited,
  standardErrorTypeFor,
  unavailable,
} from "@interlingua/errors";
import { canonicalGatewayError, fc, gatewayError } from "@interlingua/errors/testing";
import { describe, expect, it } from "vitest";
import {
  nativeErrorEnvelopeSchema,
  parseNativeError,
  renderNativeError,
} from "./native-error-envelope.js";
import { nativeStatuses } from "./native-status.js";

/** What every round trip must keep. */
const core = (error: GatewayError) => ({
  status: error.status,
  type: error.type,
  message: error.message,
});

describe("the native error envelope", () => {
  it("every rendered body passes the envelope's schema and is plain JSON", () => {
    fc.assert(
      fc.property(gatewayError, (error) => {
        const body = renderNativeError(error);
        expect(nativeErrorEnvelopeSchema.parse(body)).toEqual(body);
        expect(JSON.parse(JSON.stringify(body))).toEqual(body);
      }),
    );
  });

  it("never renders the upstream diagnostics", () => {
    const error = unavailable("busy", {
      upstream: { protocol: "gemini", status: 503, body: "UPSTREAM-ONLY" },
    });
    expect(JSON.stringify(renderNativeError(error))).not.toContain("UPSTREAM-ONLY");
  });

  it("Google's status strings, and RetryInfo when a retry delay is known", () => {
    const error = modelNotFound("txtZ-1");
    expect(renderNativeError(rateLimited("quota", { retryAfterSeconds: 34.4 }))).toEqual({
      error: {
        code: 429,
        message: "quota",
        status: "RESOURCE_EXHAUSTED",
        details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "35s" }],
      },
    });
    expect(renderNativeError(error)).toEqual({
      error: { code: 404, message: error.message, status: "NOT_FOUND" },
    });
  });

  it("falls back by class for statuses outside the table", () => {
    const teapot = { status: 418, type: "x", message: "m" } as GatewayError;
    const timeout = { status: 504, type: "x", message: "m" } as GatewayError;
    expect(renderNativeError(teapot).error.status).toBe("INVALID_ARGUMENT");
    expect(renderNativeError(timeout).error.status).toBe("DEADLINE_EXCEEDED");
  });
});

// The native body carries no standard type: it comes back as the type of the status, which is
// the error's own type for every error the constructors build.
describe("parseNativeError(renderNativeError(e))", () => {
  it("keeps status, message and retry delay exactly; type as the status's", () => {
    fc.assert(
      fc.property(gatewayError, fc.integer({ min: 100, max: 599 }), (error, httpStatus) => {
        const parsed = parseNativeError(httpStatus, renderNativeError(error));
        expect(parsed.status).toBe(error.status);
        expect(parsed.message).toBe(error.message);
        expect(parsed.type).toBe(standardErrorTypeFor(error.status));
        expect(parsed.retryAfterSeconds).toBe(
          error.retryAfterSeconds === undefined ? undefined : Math.ceil(error.retryAfterSeconds),
        );
      }),
    );
  });

  it("is exact for constructor-built errors", () => {
    fc.assert(
      fc.property(canonicalGatewayError, (error) => {
        expect(core(parseNativeError(error.status, renderNativeError(error)))).toEqual(core(error));
      }),
    );
  });

  it("never throws", () => {
    fc.assert(
      fc.property(fc.integer(), fc.oneof(fc.anything(), fc.json(), fc.string()), (status, body) => {
        const error = parseNativeError(status, body);
        expect(error.status).toBeGreaterThanOrEqual(400);
        expect(error.status).toBeLessThanOrEqual(599);
        expect(error.type).not.toBe("");
      }),
    );
  });

  it("a body without a code takes its status string", () => {
    expect(
      parseNativeError(200, { error: { message: "m", status: "PERMISSION_DENIED" } }).status,
    ).toBe(403);
  });
});

// docs/api-reference.md, Errors, "Status and type pairs": the native column, copied cell by cell
// ("" is a blank cell), and what this package fills the blank with (README, "Error envelope").
const specNative = [
  [400, "INVALID_ARGUMENT"],
  [401, "UNAUTHENTICATED"],
  [402, "PAYMENT_REQUIRED"],
  [403, "PERMISSION_DENIED"],
  [404, "NOT_FOUND"],
  [413, ""],
  [429, "RESOURCE_EXHAUSTED"],
  [500, "INTERNAL"],
  [502, "BAD_GATEWAY"],
  [503, "UNAVAILABLE"],
] as const;
const chosenNativeStatus: Record<number, string> = { 413: "INVALID_ARGUMENT" };

describe("the native statuses equal docs/api-reference.md's", () => {
  it.each(specNative)("native status of %i", (http, native) => {
    expect(nativeStatuses[http]).toBe(native || chosenNativeStatus[http]);
  });

  it("fills exactly the blank cells with a choice", () => {
    expect(Object.keys(chosenNativeStatus).map(Number)).toEqual(
      specNative.filter(([, native]) => native === "").map(([http]) => http),
    );
  });

  it("copied the column from the API reference itself", () => {
    const spec = readFileSync(new URL("../../../docs/api-reference.md", import.meta.url), "utf8");
    const rows = spec
      .slice(spec.indexOf("Status and type pairs"))
      .split("\n")
      .filter((line) => /^\| \d{3} \|/.test(line))
      .map((line) => line.split("|").map((cell) => cell.trim()))
      .map((cells) => [Number(cells[1]), cells[3]]);
    expect(rows).toEqual(specNative.map((row) => [...row]));
  });
});
