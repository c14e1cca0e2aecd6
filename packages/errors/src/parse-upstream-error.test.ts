import type { UpstreamProtocol } from "@interlingua/core-types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fixtureChunks, fixtureJson } from "../test/fixtures.js";
import { gatewayErrorFieldsSchema } from "./gateway-error.js";
import { gatewayStatuses } from "./gateway-status.js";
import { renderNativeError } from "./native-envelope.js";
import { parseGeminiError } from "./parse-gemini-error.js";
import { parseOpenAIError } from "./parse-openai-error.js";
import { renderStandardError } from "./standard-envelope.js";
import { standardErrorTypes } from "./standard-error-type.js";
import { canonicalGatewayError } from "./testing.js";
import { gatewayStatusForUpstream } from "./upstream-status.js";

// Each protocol's reader, as the gateway dispatches them.
const parsers = {
  openai: parseOpenAIError,
  gemini: parseGeminiError,
  "openai-responses": (status: number, body: unknown) =>
    parseOpenAIError(status, body, undefined, "openai-responses"),
} satisfies Partial<Record<UpstreamProtocol, (status: number, body: unknown) => unknown>>;
type Protocol = keyof typeof parsers;
const parseUpstreamError = (protocol: Protocol, status: number, body: unknown) =>
  parsers[protocol](status, body);

const quotaMessage =
  "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.";

describe("recorded upstream errors", () => {
  it("gemini/google-429-retry-info.json: a 429 with its RetryInfo delay", () => {
    const body = fixtureJson("gemini/google-429-retry-info.json");
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

  it("gemini: the same body as raw text, or as bytes", () => {
    const body = JSON.stringify(fixtureJson("gemini/google-429-retry-info.json"));
    const bytes = new TextEncoder().encode(body);
    for (const raw of [body, bytes, bytes.buffer]) {
      expect(parseGeminiError(429, raw).toJSON()).toMatchObject({
        status: 429,
        retryAfterSeconds: 35,
      });
    }
  });

  it("openai-responses/openai-error.1.json: insufficient_quota is the gateway's account, so 502", () => {
    const error = parseOpenAIError(429, fixtureJson("openai-responses/openai-error.1.json"));
    expect(error.toJSON()).toEqual({
      status: 502,
      type: "bad_gateway",
      message: `Upstream provider error (429): ${quotaMessage}`,
    });
  });

  it("openai-responses protocol: the same body, named as the Responses API in diagnostics", () => {
    const body = fixtureJson("openai-responses/openai-error.1.json");
    const error = parseOpenAIError(429, body, undefined, "openai-responses");
    expect(error.toJSON()).toEqual(parseOpenAIError(429, body).toJSON());
    expect(error.upstream).toEqual({ protocol: "openai-responses", status: 429, body });
  });

  it("openai-responses/openai-error.1.chunks.txt: the `error` and `response.failed` events of a 200 stream", () => {
    const events = fixtureChunks("openai-responses/openai-error.1.chunks.txt") as {
      type: string;
    }[];
    const failures = events.filter((e) => e.type === "error" || e.type === "response.failed");
    expect(failures.map((e) => e.type)).toEqual(["error", "response.failed"]);
    for (const event of failures) {
      expect(parseOpenAIError(200, event).toJSON()).toEqual({
        status: 502,
        type: "bad_gateway",
        message: `Upstream provider error (402): ${quotaMessage}`,
      });
    }
  });

  it("openai: the Responses `error` event in its documented flat form", () => {
    const event = {
      type: "error",
      code: "rate_limit_exceeded",
      message: "Slow down",
      param: null,
      sequence_number: 3,
    };
    expect(parseOpenAIError(200, event).toJSON()).toEqual({
      status: 429,
      type: "rate_limit_error",
      message: "Slow down",
      code: "rate_limit_exceeded",
    });
  });
});

describe("OpenAI errors", () => {
  it("a bad upstream key is a 502 that quotes no key", () => {
    const body = {
      error: {
        message:
          "Incorrect API key provided: sk-proj-abcd****************************************wxyz. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    };
    const error = parseOpenAIError(401, body);
    expect(error.toJSON()).toEqual({
      status: 502,
      type: "bad_gateway",
      message:
        "Upstream provider error (401): Incorrect API key provided: [redacted]. You can find your API key at https://platform.openai.com/account/api-keys.",
    });
  });

  it("keeps the code and param of the client's own mistake", () => {
    const body = {
      error: {
        message: "This model's maximum context length is 128000 tokens.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    };
    expect(parseOpenAIError(400, body).toJSON()).toEqual({
      status: 400,
      type: "invalid_request_error",
      message: "This model's maximum context length is 128000 tokens.",
      code: "context_length_exceeded",
      param: "messages",
    });
  });

  it("keeps model_not_found on a 404", () => {
    const body = {
      error: {
        message: "The model `x` does not exist",
        type: "invalid_request_error",
        param: null,
        code: "model_not_found",
      },
    };
    expect(parseOpenAIError(404, body).toJSON()).toMatchObject({
      status: 404,
      code: "model_not_found",
    });
  });

  it.each(["constructor", "__proto__", "toString", "hasOwnProperty"])(
    "a code named like an Object member (%s) is just an unknown code",
    (code) => {
      expect(parseOpenAIError(200, { error: { message: "m", code, type: code } }).status).toBe(502);
      expect(parseOpenAIError(400, { error: { message: "m", code } }).toJSON()).toMatchObject({
        status: 400,
        code,
      });
    },
  );

  it("reads the loose bodies of compatible providers", () => {
    expect(parseOpenAIError(400, { error: "bad temperature" }).message).toBe("bad temperature");
    expect(parseOpenAIError(422, { detail: "field required" }).toJSON()).toMatchObject({
      status: 400,
      message: "field required",
    });
    expect(parseOpenAIError(400, '{"message":"nope"}').message).toBe("nope");
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

describe("bodies that are not the protocol's", () => {
  const html =
    "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";

  it.each(["openai", "gemini"] as const)(
    "%s: an HTML page from a proxy is not echoed",
    (protocol) => {
      const error = parseUpstreamError(protocol, 502, html);
      expect(error.toJSON()).toEqual({
        status: 502,
        type: "bad_gateway",
        message: "Upstream provider error (502)",
      });
      expect(error.upstream?.body).toBe(html);
    },
  );

  it("plain text is kept as the message", () => {
    const error = parseUpstreamError(
      "openai",
      503,
      "upstream connect error or disconnect/reset before headers",
    );
    expect(error.toJSON()).toEqual({
      status: 503,
      type: "service_unavailable",
      message:
        "Upstream provider error (503): upstream connect error or disconnect/reset before headers",
    });
  });

  it("an empty 4xx body gets the status's default message", () => {
    expect(parseUpstreamError("gemini", 404, "").message).toBe("Not found");
  });

  it("a very long message is cut", () => {
    const error = parseOpenAIError(400, { error: { message: "x".repeat(5000) } });
    expect(error.message.length).toBeLessThanOrEqual(1001);
  });
});

describe("the upstream status table", () => {
  it.each([
    [400, 400],
    [401, 502],
    [402, 502],
    [403, 502],
    [404, 404],
    [408, 502],
    [413, 413],
    [418, 400],
    [422, 400],
    [429, 429],
    [500, 502],
    [502, 502],
    [503, 503],
    [504, 502],
    [529, 503],
    [599, 502],
  ])("upstream %i -> %i", (upstream, gateway) => {
    expect(gatewayStatusForUpstream(upstream)).toBe(gateway);
  });
});

const protocols: Protocol[] = ["openai", "gemini", "openai-responses"];
const anyBody = fc.oneof(
  fc.anything({
    withBoxedValues: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withTypedArray: true,
    withSparseArray: true,
  }),
  fc.json(),
  fc.string(),
  fc.record({ error: fc.anything() }),
  fc.record({ type: fc.constant("error"), error: fc.anything() }),
  fc.record({
    error: fc.record({
      code: fc.anything(),
      message: fc.anything(),
      status: fc.anything(),
      details: fc.anything(),
    }),
  }),
);

describe("any body, any status", () => {
  it("never throws, and always yields a row of the spec's table", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...protocols),
        fc.integer({ min: -1, max: 1000 }),
        anyBody,
        (protocol, status, body) => {
          const error = parseUpstreamError(protocol, status, body);
          expect(gatewayErrorFieldsSchema.safeParse(error.toJSON()).success).toBe(true);
          expect(gatewayStatuses).toContain(error.status);
          expect(error.type).toBe(
            standardErrorTypes[error.status as keyof typeof standardErrorTypes],
          );
          expect(error.message).not.toBe("");
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never quotes a key, whatever surrounds it", () => {
    const openAIKey = fc
      .tuple(
        fc.constantFrom("sk-", "sk-proj-", "sk-ant-api03-"),
        fc.stringMatching(/^[A-Za-z0-9_-]{20,60}$/),
      )
      .map(([prefix, rest]) => prefix + rest);
    const googleKey = fc.stringMatching(/^[A-Za-z0-9_-]{35}$/).map((rest) => `AIza${rest}`);
    fc.assert(
      fc.property(
        fc.constantFrom(...protocols),
        fc.constantFrom(400, 401, 404, 429, 500, 200),
        fc.string(),
        fc.oneof(openAIKey, googleKey),
        fc.constantFrom(" ", ": ", "=", "'", '"', "(", "\n", "key="),
        fc.string(),
        (protocol, status, before, key, separator, after) => {
          const message = `${before}${separator}${key} ${after}`;
          const bodies = {
            openai: { error: { message, type: "invalid_request_error" } },
            gemini: { error: { code: 400, message, status: "INVALID_ARGUMENT" } },
            "openai-responses": { error: { message, type: "invalid_request_error" } },
          };
          expect(parseUpstreamError(protocol, status, bodies[protocol]).message).not.toContain(key);
        },
      ),
    );
  });

  it("reads the gateway's own bodies as the upstream would send them", () => {
    // A gateway in front of a gateway: our bodies, read as each protocol's upstream error.
    fc.assert(
      fc.property(canonicalGatewayError, (error) => {
        const expected = gatewayStatusForUpstream(error.status);
        expect(parseOpenAIError(error.status, renderStandardError(error)).status).toBe(expected);
        expect(parseGeminiError(error.status, renderNativeError(error)).status).toBe(expected);
        expect(parseGeminiError(200, renderNativeError(error)).status).toBe(expected);
      }),
    );
  });
});
