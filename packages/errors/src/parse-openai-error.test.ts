import { describe, expect, it } from "vitest";
import { fixtureChunks, fixtureJson } from "../test/fixtures.js";
import { gatewayErrorFieldsSchema } from "./gateway-error-schema.js";
import { gatewayStatuses } from "./gateway-status.js";
import { parseOpenAIError } from "./parse-openai-error.js";
import { renderStandardError } from "./standard-envelope.js";
import { standardErrorTypes } from "./standard-error-type.js";
import {
  canonicalGatewayError,
  fc,
  messageQuoting,
  providerApiKey,
  upstreamErrorBody,
} from "./testing.js";
import { gatewayStatusForUpstream } from "./upstream-status.js";

const quotaMessage =
  "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.";

describe("recorded upstream errors", () => {
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

describe("bodies that are not OpenAI's", () => {
  const html =
    "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>";

  it("an HTML page from a proxy is not echoed", () => {
    const error = parseOpenAIError(502, html);
    expect(error.toJSON()).toEqual({
      status: 502,
      type: "bad_gateway",
      message: "Upstream provider error (502)",
    });
    expect(error.upstream?.body).toBe(html);
  });

  it("plain text is kept as the message", () => {
    const error = parseOpenAIError(
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
    expect(parseOpenAIError(404, "").message).toBe("Not found");
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

// Both OpenAI APIs share the reader; the Responses API is only named apart in diagnostics.
const apis = ["openai", "openai-responses"] as const;

describe("any body, any status", () => {
  it("never throws, and always yields a row of the spec's table", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...apis),
        fc.integer({ min: -1, max: 1000 }),
        upstreamErrorBody,
        (api, status, body) => {
          const error = parseOpenAIError(status, body, undefined, api);
          expect(gatewayErrorFieldsSchema.safeParse(error.toJSON()).success).toBe(true);
          expect(gatewayStatuses).toContain(error.status);
          expect(error.type).toBe(
            standardErrorTypes[error.status as keyof typeof standardErrorTypes],
          );
          expect(error.message).not.toBe("");
          expect(error.upstream?.protocol).toBe(api);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("never quotes a key, whatever surrounds it", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(400, 401, 404, 429, 500, 200),
        providerApiKey.chain((key) => messageQuoting(key).map((message) => ({ key, message }))),
        (status, { key, message }) => {
          const body = { error: { message, type: "invalid_request_error" } };
          expect(parseOpenAIError(status, body).message).not.toContain(key);
        },
      ),
    );
  });

  it("reads the gateway's own standard bodies as OpenAI would send them", () => {
    // A gateway in front of a gateway: our body, read as an upstream error.
    fc.assert(
      fc.property(canonicalGatewayError, (error) => {
        expect(parseOpenAIError(error.status, renderStandardError(error)).status).toBe(
          gatewayStatusForUpstream(error.status),
        );
      }),
    );
  });
});
