import {
  gatewayStatuses,
  gatewayStatusForUpstream,
  standardErrorTypeFor,
  standardErrorTypes,
} from "@interlingua/errors";
import { gatewayErrorFieldsSchema } from "@interlingua/errors/schemas";
import {
  canonicalGatewayError,
  fc,
  messageQuoting,
  providerApiKey,
  upstreamErrorBody,
} from "@interlingua/errors/testing";
import { describe, expect, it } from "vitest";
import { renderMessagesError } from "./messages-error-envelope.js";
import { parseAnthropicError } from "./parse-anthropic-error.js";

describe("Anthropic errors (docs.claude.com/en/api/errors)", () => {
  it("a stream `error` event inside a 200 stream: overloaded_error becomes 503", () => {
    const data =
      '{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}';
    expect(parseAnthropicError(200, data).toJSON()).toEqual({
      status: 503,
      type: "service_unavailable",
      message: "Upstream provider error (529): Overloaded",
    });
  });

  it("the documented body of a 404", () => {
    const body = {
      type: "error",
      error: { type: "not_found_error", message: "The requested resource could not be found." },
      request_id: "req_011CSHoEeqs5C35K2UUqR7Fy",
    };
    expect(parseAnthropicError(404, body).toJSON()).toEqual({
      status: 404,
      type: "not_found_error",
      message: "The requested resource could not be found.",
    });
    expect(parseAnthropicError(404, body).upstream).toEqual({
      protocol: "anthropic",
      status: 404,
      body,
    });
  });

  it.each([
    [400, "invalid_request_error", 400],
    [401, "authentication_error", 502],
    [402, "billing_error", 502],
    [400, "billing_error", 502],
    [403, "permission_error", 502],
    [413, "request_too_large", 413],
    [429, "rate_limit_error", 429],
    [500, "api_error", 502],
    [504, "timeout_error", 502],
    [529, "overloaded_error", 503],
    [200, "rate_limit_error", 429],
    [200, "api_error", 502],
    [200, "something_new", 502],
  ])("HTTP %i %s -> %i", (http, type, expected) => {
    const error = parseAnthropicError(http, { type: "error", error: { type, message: "m" } });
    expect([error.status, error.type]).toEqual([
      expected,
      standardErrorTypes[expected as keyof typeof standardErrorTypes],
    ]);
  });

  it("takes the retry delay from the retry-after header", () => {
    const body = { type: "error", error: { type: "rate_limit_error", message: "m" } };
    expect(parseAnthropicError(429, body, { retryAfter: "20" }).retryAfterSeconds).toBe(20);
    expect(
      parseAnthropicError(429, body, {
        retryAfter: "Wed, 21 Oct 2015 07:28:30 GMT",
        now: Date.parse("Wed, 21 Oct 2015 07:28:00 GMT"),
      }).retryAfterSeconds,
    ).toBe(30);
  });
});

describe("bodies that are not Anthropic's", () => {
  it("an HTML page from a proxy is not echoed", () => {
    const html =
      "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>";
    const error = parseAnthropicError(502, html);
    expect(error.toJSON()).toEqual({
      status: 502,
      type: "bad_gateway",
      message: "Upstream provider error (502)",
    });
    expect(error.upstream?.body).toBe(html);
  });

  it("an empty 4xx body gets the status's default message", () => {
    expect(parseAnthropicError(413, undefined).message).toBe("Request too large");
  });
});

describe("any body, any status", () => {
  it("never throws, and always yields a row of the spec's table", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: 1000 }), upstreamErrorBody, (status, body) => {
        const error = parseAnthropicError(status, body);
        expect(gatewayErrorFieldsSchema.safeParse(error.toJSON()).success).toBe(true);
        expect(gatewayStatuses).toContain(error.status);
        expect(error.type).toBe(standardErrorTypeFor(error.status));
        expect(error.message).not.toBe("");
      }),
      { numRuns: 200 },
    );
  });

  it("never quotes a key, whatever surrounds it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(400, 401, 404, 429, 500, 200),
        providerApiKey.chain((key) => messageQuoting(key).map((message) => ({ key, message }))),
        (status, { key, message }) => {
          const body = { type: "error", error: { type: "invalid_request_error", message } };
          expect(parseAnthropicError(status, body).message).not.toContain(key);
        },
      ),
    );
  });

  it("reads the gateway's own messages bodies as Anthropic would send them", () => {
    // A gateway in front of a gateway: our body, read as an upstream error.
    fc.assert(
      fc.property(canonicalGatewayError, (error) => {
        expect(parseAnthropicError(error.status, renderMessagesError(error)).status).toBe(
          gatewayStatusForUpstream(error.status),
        );
      }),
    );
  });
});
