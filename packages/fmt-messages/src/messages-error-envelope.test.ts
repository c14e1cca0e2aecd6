import { readFileSync } from "node:fs";
import { type GatewayError, modelNotFound, rateLimited, unavailable } from "@interlingua/errors";
import { canonicalGatewayError, fc, gatewayError, requestId } from "@interlingua/errors/testing";
import { describe, expect, it } from "vitest";
import { threadNotHeld } from "./message-threads.js";
import {
  anthropicErrorBodySchema,
  messagesErrorEnvelopeSchema,
  parseMessagesError,
  renderMessagesError,
  serviceErrorBodySchema,
} from "./messages-error-envelope.js";
import { messagesErrorTypeFor, messagesErrorTypes } from "./messages-error-type.js";

const messagesOptions = fc.record(
  { requestId: fc.oneof(requestId, fc.string()), variant: fc.constantFrom("anthropic", "service") },
  { requiredKeys: [] },
);

/** What every round trip must keep. */
const core = (error: GatewayError) => ({
  status: error.status,
  type: error.type,
  message: error.message,
});

describe("the messages error envelope", () => {
  const error = modelNotFound("txtZ-1");

  it("every rendered body passes the envelope's schema and is plain JSON", () => {
    fc.assert(
      fc.property(gatewayError, messagesOptions, (any, options) => {
        const body = renderMessagesError(any, options);
        expect(messagesErrorEnvelopeSchema.parse(body)).toEqual(body);
        expect(JSON.parse(JSON.stringify(body))).toEqual(body);
      }),
    );
  });

  it("never renders the upstream diagnostics", () => {
    const busy = unavailable("busy", {
      upstream: { protocol: "anthropic", status: 503, body: "UPSTREAM-ONLY" },
    });
    for (const variant of ["anthropic", "service"] as const) {
      expect(JSON.stringify(renderMessagesError(busy, { variant }))).not.toContain("UPSTREAM-ONLY");
    }
  });

  it("Anthropic's body, the message ending with the request id", () => {
    expect(renderMessagesError(error, { requestId: "req_1" })).toEqual({
      type: "error",
      error: {
        type: "not_found_error",
        message: `${error.message} (request id: req_1)`,
      },
      request_id: "req_1",
    });
  });

  it("the service_error pass-through variant", () => {
    const body = renderMessagesError(error, { variant: "service", requestId: "req_2" });
    expect(serviceErrorBodySchema.parse(body)).toEqual({
      error: {
        code: "model_not_found",
        message: `${error.message} (request id: req_2)`,
        param: "model",
        type: "service_error",
      },
    });
    expect(renderMessagesError(rateLimited("x"), { variant: "service" }).error).toMatchObject({
      code: "",
      param: "",
    });
  });

  it("falls back by class for statuses outside the table", () => {
    const teapot = { status: 418, type: "x", message: "m" } as GatewayError;
    const timeout = { status: 504, type: "x", message: "m" } as GatewayError;
    expect(anthropicErrorBodySchema.parse(renderMessagesError(teapot)).error.type).toBe(
      "invalid_request_error",
    );
    expect(renderMessagesError(timeout).error.type).toBe("timeout_error");
  });
});

// The messages body carries no standard type: it comes back as the type of the status, which is
// the error's own type for every error the constructors build.
describe("parseMessagesError(renderMessagesError(e)) keeps status, type and message", () => {
  it("both variants, with a request id: exactly, for constructor-built errors", () => {
    fc.assert(
      fc.property(
        canonicalGatewayError,
        fc.constantFrom("anthropic" as const, "service" as const),
        requestId,
        (error, variant, id) => {
          const body = renderMessagesError(error, { variant, requestId: id });
          expect(core(parseMessagesError(error.status, body))).toEqual(core(error));
        },
      ),
    );
  });

  it("with any request id not itself holding the suffix marker", () => {
    fc.assert(
      fc.property(
        canonicalGatewayError,
        fc.string().filter((id) => !id.includes(" (request id: ")),
        (error, id) => {
          const body = renderMessagesError(error, { requestId: id });
          expect(parseMessagesError(error.status, body).message).toBe(error.message);
        },
      ),
    );
  });

  it("without a request id: exactly, unless the message itself ends like one", () => {
    fc.assert(
      fc.property(canonicalGatewayError, (error) => {
        fc.pre(!/ \(request id: .*\)$/s.test(error.message));
        expect(core(parseMessagesError(error.status, renderMessagesError(error)))).toEqual(
          core(error),
        );
      }),
    );
  });

  it("service variant: code and param too", () => {
    fc.assert(
      fc.property(gatewayError, requestId, (error, id) => {
        const body = renderMessagesError(error, { variant: "service", requestId: id });
        const parsed = parseMessagesError(error.status, body);
        expect([parsed.code, parsed.param]).toEqual([error.code, error.param]);
      }),
    );
  });

  it("in a 200 stream (no HTTP status): the Anthropic type survives, and so does the status but for 502 and 413", () => {
    fc.assert(
      fc.property(canonicalGatewayError, requestId, (error, id) => {
        const parsed = parseMessagesError(200, renderMessagesError(error, { requestId: id }));
        expect(messagesErrorTypeFor(parsed.status)).toBe(messagesErrorTypeFor(error.status));
        // 502 shares api_error with 500, and 413 invalid_request_error with 400 (docs/api-reference.md's rows).
        const shared: Record<number, number> = { 502: 500, 413: 400 };
        expect(parsed.status).toBe(shared[error.status] ?? error.status);
        expect(parsed.message).toBe(error.message);
      }),
    );
  });

  it("never throws", () => {
    fc.assert(
      fc.property(fc.integer(), fc.oneof(fc.anything(), fc.json(), fc.string()), (status, body) => {
        const error = parseMessagesError(status, body);
        expect(error.status).toBeGreaterThanOrEqual(400);
        expect(error.status).toBeLessThanOrEqual(599);
        expect(error.type).not.toBe("");
      }),
    );
  });

  it("an unknown body is the HTTP status's default", () => {
    expect(parseMessagesError(503, "<html>").toJSON()).toEqual({
      status: 503,
      type: "service_unavailable",
      message: "Service unavailable",
    });
  });
});

// The spec's "messages endpoint errors" row (docs/api-reference.md, Errors).
const specMessagesTypes = [
  "invalid_request_error",
  "authentication_error",
  "rate_limit_error",
  "api_error",
];

describe("the messages types equal docs/api-reference.md's", () => {
  it("uses every messages-endpoint type the spec shows, and Anthropic's types for the rest", () => {
    const used = new Set(Object.values(messagesErrorTypes));
    for (const type of specMessagesTypes) expect(used).toContain(type);
    // Anthropic's documented status of each type (docs.claude.com/en/api/errors); 502 and 503
    // have no Anthropic status of their own.
    expect(messagesErrorTypes).toEqual({
      400: "invalid_request_error",
      401: "authentication_error",
      402: "billing_error",
      403: "permission_error",
      404: "not_found_error",
      413: "invalid_request_error",
      429: "rate_limit_error",
      500: "api_error",
      502: "api_error",
      503: "overloaded_error",
    });
  });

  it("copied the row from the API reference itself", () => {
    const spec = readFileSync(new URL("../../../docs/api-reference.md", import.meta.url), "utf8");
    const table = spec.slice(spec.indexOf("Status and type pairs"));
    expect(table).toContain(specMessagesTypes.map((type) => `\`${type}\``).join(", "));
  });
});

describe("Anthropic's error codes", () => {
  it("a thread the gateway does not hold is thread_not_found in error.details", () => {
    const request = (thread: unknown) =>
      ({
        model: "m",
        system: [],
        messages: [],
        sampling: {},
        tools: [],
        stream: false,
        extras: { messages: { thread } },
      }) as never;
    expect(threadNotHeld(request({ type: "create" }))).toBeUndefined();
    const error = threadNotHeld(request({ type: "continue", previous_message_id: "msg_1" }));
    expect(error?.status).toBe(404);
    const body = anthropicErrorBodySchema.parse(renderMessagesError(error!));
    expect(body.error).toMatchObject({
      type: "not_found_error",
      details: { error_code: "thread_not_found" },
    });
  });
});
