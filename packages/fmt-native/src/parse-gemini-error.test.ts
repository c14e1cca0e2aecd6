import { readFileSync } from "node:fs";
import {
  gatewayStatuses,
  gatewayStatusForUpstream,
  standardErrorTypeFor,
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
import { renderNativeError } from "./native-error-envelope.js";
import { parseGeminiError } from "./parse-gemini-error.js";

const retryInfoBody = (): unknown =>
  JSON.parse(
    readFileSync(
      new URL("../../../fixtures/gemini/google-429-retry-info.json", import.meta.url),
      "utf8",
    ),
  );

describe("recorded Gemini errors", () => {
  it("gemini/google-429-retry-info.json: a 429 with its RetryInfo delay", () => {
    const body = retryInfoBody();
    const error = parseGeminiError(429, body);
    expect(error.toJSON()).toEqual({
      status: 429,
      type: "rate_limit_error",
      message: "You exceeded your current quota, please check your plan.",
      retryAfterSeconds: 35, // "34.4s", rounded up for a Retry-After header
    });
    expect(error.upstream).toEqual({ protocol: "gemini", status: 429, body });
    // And what a native-format client then receives.
    expect(renderNativeError(error).error).toMatchObject({
      code: 429,
      status: "RESOURCE_EXHAUSTED",
      details: [{ retryDelay: "35s" }],
    });
  });

  it("the same body as raw text, or as bytes", () => {
    const body = JSON.stringify(retryInfoBody());
    const bytes = new TextEncoder().encode(body);
    for (const raw of [body, bytes, bytes.buffer]) {
      expect(parseGeminiError(429, raw).toJSON()).toMatchObject({
        status: 429,
        retryAfterSeconds: 35,
      });
    }
  });
});

describe("Gemini errors", () => {
  it("a bad key comes as 400 INVALID_ARGUMENT, and is still the gateway's key: 502", () => {
    const body = {
      error: {
        code: 400,
        message: "API key not valid. Please pass a valid API key.",
        status: "INVALID_ARGUMENT",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "API_KEY_INVALID",
            domain: "googleapis.com",
            metadata: { service: "generativelanguage.googleapis.com" },
          },
        ],
      },
    };
    expect(parseGeminiError(400, body).toJSON()).toEqual({
      status: 502,
      type: "bad_gateway",
      message: "Upstream provider error (400): API key not valid. Please pass a valid API key.",
    });
  });

  it("reads the one-element array of a non-SSE stream, and the status string inside a 200", () => {
    const body = [
      { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } },
    ];
    expect(parseGeminiError(503, body).status).toBe(503);
    expect(parseGeminiError(200, body).status).toBe(503);
    expect(parseGeminiError(200, { error: { message: "m", status: "NOT_FOUND" } }).status).toBe(
      404,
    );
    expect(
      parseGeminiError(200, { error: { message: "m", status: "DEADLINE_EXCEEDED" } }).status,
    ).toBe(502);
  });
});

describe("bodies that are not Gemini's", () => {
  it("an HTML page from a proxy is not echoed", () => {
    const html =
      "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center></body></html>";
    const error = parseGeminiError(502, html);
    expect(error.toJSON()).toEqual({
      status: 502,
      type: "bad_gateway",
      message: "Upstream provider error (502)",
    });
    expect(error.upstream?.body).toBe(html);
  });

  it("an empty 4xx body gets the status's default message", () => {
    expect(parseGeminiError(404, "").message).toBe("Not found");
  });
});

describe("any body, any status", () => {
  it("never throws, and always yields a row of the spec's table", () => {
    fc.assert(
      fc.property(fc.integer({ min: -1, max: 1000 }), upstreamErrorBody, (status, body) => {
        const error = parseGeminiError(status, body);
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
          const body = { error: { code: 400, message, status: "INVALID_ARGUMENT" } };
          expect(parseGeminiError(status, body).message).not.toContain(key);
        },
      ),
    );
  });

  it("reads the gateway's own native bodies as Gemini would send them", () => {
    // A gateway in front of a gateway: our body, read as an upstream error, in a stream too.
    fc.assert(
      fc.property(canonicalGatewayError, (error) => {
        const expected = gatewayStatusForUpstream(error.status);
        expect(parseGeminiError(error.status, renderNativeError(error)).status).toBe(expected);
        expect(parseGeminiError(200, renderNativeError(error)).status).toBe(expected);
      }),
    );
  });
});
