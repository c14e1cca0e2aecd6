import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { balanceErrorBodySchema, renderBalanceError } from "./balance-envelope.js";
import { modelNotFound, rateLimited, unavailable } from "./constructors.js";
import type { GatewayError } from "./gateway-error.js";
import { errorEnvelopes, renderError } from "./render-error.js";
import {
  parseStandardError,
  renderStandardError,
  standardErrorBodySchema,
} from "./standard-envelope.js";
import { gatewayError } from "./testing.js";
import { parseUploadError, renderUploadError, uploadErrorBodySchema } from "./upload-envelope.js";

const schemas = {
  standard: standardErrorBodySchema,
  upload: uploadErrorBodySchema,
  balance: balanceErrorBodySchema,
};

/** What every round trip must keep. */
const core = (error: GatewayError) => ({
  status: error.status,
  type: error.type,
  message: error.message,
});

describe("every rendered body passes its envelope's schema", () => {
  it.each(errorEnvelopes)("%s", (envelope) => {
    fc.assert(
      fc.property(gatewayError, (error) => {
        const body = renderError(error, envelope);
        expect(schemas[envelope].parse(body)).toEqual(body);
        // Plain JSON: nothing is lost or added by the wire.
        expect(JSON.parse(JSON.stringify(body))).toEqual(body);
      }),
    );
  });

  it("renderError dispatches to each envelope's renderer", () => {
    fc.assert(
      fc.property(gatewayError, (error) => {
        expect(renderError(error, "standard")).toEqual(renderStandardError(error));
        expect(renderError(error, "upload")).toEqual(renderUploadError(error));
        expect(renderError(error, "balance")).toEqual(renderBalanceError(error));
      }),
    );
  });

  it("never renders the upstream diagnostics", () => {
    const error = unavailable("busy", {
      upstream: { protocol: "gemini", status: 503, body: "UPSTREAM-ONLY" },
    });
    for (const envelope of errorEnvelopes) {
      expect(JSON.stringify(renderError(error, envelope))).not.toContain("UPSTREAM-ONLY");
    }
  });
});

describe("the spec's shapes", () => {
  const error = modelNotFound("txtZ-1");

  it("standard: integer code equal to the status", () => {
    expect(renderStandardError(rateLimited("Too many requests"))).toEqual({
      error: { code: 429, message: "Too many requests", type: "rate_limit_error" },
    });
    expect(renderStandardError(error).error).toMatchObject({ code: 404, param: "model" });
  });

  it("upload: code only on 429", () => {
    expect(renderUploadError(rateLimited("slow"))).toEqual({
      error: { message: "slow", type: "rate_limit_error", code: 429 },
    });
    expect(renderUploadError(error)).toEqual({
      error: { message: error.message, type: "not_found_error" },
    });
  });

  it("balance: success false", () => {
    expect(renderBalanceError("token record missing")).toEqual({
      success: false,
      message: "token record missing",
    });
  });
});

describe("parse(render(e)) keeps status, type and message", () => {
  it("standard: exactly, for any error (and its param)", () => {
    fc.assert(
      fc.property(gatewayError, fc.integer({ min: 100, max: 599 }), (error, httpStatus) => {
        const parsed = parseStandardError(httpStatus, renderStandardError(error));
        expect(parsed.toJSON()).toEqual({
          ...core(error),
          ...(error.param === undefined ? {} : { param: error.param }),
        });
      }),
    );
  });

  it("standard: also from the raw text of the body", () => {
    fc.assert(
      fc.property(gatewayError, (error) => {
        const text = JSON.stringify(renderStandardError(error));
        expect(core(parseStandardError(error.status, text))).toEqual(core(error));
      }),
    );
  });

  it("upload: exactly, given the HTTP status", () => {
    fc.assert(
      fc.property(gatewayError, (error) => {
        expect(core(parseUploadError(error.status, renderUploadError(error)))).toEqual(core(error));
      }),
    );
  });
});

describe("parsers of the gateway's own bodies never throw", () => {
  const parsers = [parseStandardError, parseUploadError];
  it.each(parsers)("%o", (parse) => {
    fc.assert(
      fc.property(fc.integer(), fc.oneof(fc.anything(), fc.json(), fc.string()), (status, body) => {
        const error = parse(status, body);
        expect(error.status).toBeGreaterThanOrEqual(400);
        expect(error.status).toBeLessThanOrEqual(599);
        expect(error.type).not.toBe("");
      }),
    );
  });
});

describe("bodies from elsewhere", () => {
  it("standard: a body without a code takes the HTTP status", () => {
    expect(
      parseStandardError(404, { error: { message: "gone", type: "not_found_error" } }).toJSON(),
    ).toEqual({
      status: 404,
      type: "not_found_error",
      message: "gone",
    });
  });
});
