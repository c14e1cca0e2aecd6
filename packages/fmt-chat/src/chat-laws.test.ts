import {
  accumulateStream,
  normalizeStreamEvents,
  outputsOf,
  requestSchema,
  responseSchema,
  responseToEvents,
  streamEventSchema,
} from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { chatRequestSchema, chatResponseSchema } from "./chat-api.js";
import { chatChunkSchema } from "./chat-chunk-api.js";
import { normalizeChatRequest } from "./normalize-chat-request.js";
import { normalizeChatResponse } from "./normalize-chat-response.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { decodeChatMessages } from "./parse-chat-stream.js";
import { renderChatRequest } from "./render-chat-request.js";
import { renderChatResponse } from "./render-chat-response.js";
import { encodeChatEvents } from "./render-chat-stream.js";
import {
  asJson,
  chatChunksToSse,
  chatRequestWire,
  chatResponseWire,
  chatStreamWire,
  fc,
  toChatExpressibleRequest,
  toChatExpressibleResponse,
} from "./testing.js";

describe("wire arbitraries: the zod schema is the oracle", () => {
  it("every generated request passes the chat request schema", () => {
    fc.assert(
      fc.property(chatRequestWire, (wire) => {
        expect(chatRequestSchema.safeParse(wire).success).toBe(true);
      }),
    );
  });

  it("every generated response passes the chat response schema", () => {
    fc.assert(
      fc.property(chatResponseWire, (wire) => {
        expect(chatResponseSchema.safeParse(wire).success).toBe(true);
      }),
    );
  });

  it("every generated stream chunk passes the chunk schema", () => {
    fc.assert(
      fc.property(chatStreamWire, ({ chunks }) => {
        for (const chunk of chunks) expect(chatChunkSchema.safeParse(chunk).success).toBe(true);
      }),
    );
  });

  it("parse produces values that pass the canonical schemas", () => {
    fc.assert(
      fc.property(chatRequestWire, chatResponseWire, (request, response) => {
        expect(requestSchema.safeParse(parseChatRequest(request)).success).toBe(true);
        expect(responseSchema.safeParse(parseChatResponse(response)).success).toBe(true);
      }),
    );
  });
});

describe("law 1: render(parse(w)) equals normalize(w)", () => {
  it("requests", () => {
    fc.assert(
      fc.property(chatRequestWire, (wire) => {
        expect(renderChatRequest(parseChatRequest(wire))).toStrictEqual(normalizeChatRequest(wire));
      }),
    );
  });

  it("responses", () => {
    fc.assert(
      fc.property(chatResponseWire, (wire) => {
        expect(renderChatResponse(parseChatResponse(wire))).toStrictEqual(
          normalizeChatResponse(wire),
        );
      }),
    );
  });

  it("holds for a __proto__ field, which JSON.parse makes an own field: nothing is read through it", () => {
    const request = JSON.parse(
      '{"model":"m","messages":[{"role":"user","content":"hi"}],"__proto__":{"stream":true}}',
    );
    const normal = normalizeChatRequest(request);
    expect(Object.getPrototypeOf(normal)).toBe(Object.prototype);
    expect(normal.stream).toBeUndefined();
    expect(normal).toStrictEqual({ model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(renderChatRequest(parseChatRequest(request))).toStrictEqual(normal);

    const response = JSON.parse(
      '{"id":"c","object":"chat.completion","created":1,"model":"m","choices":[],"__proto__":{"x":1}}',
    );
    const normalResponse = normalizeChatResponse(response);
    expect(Object.getPrototypeOf(normalResponse)).toBe(Object.prototype);
    expect(renderChatResponse(parseChatResponse(response))).toStrictEqual(normalResponse);
  });

  it("keeps unknown fields named like Object.prototype members (constructor, toString)", () => {
    const request = {
      model: "m",
      messages: [{ role: "user", content: "hi" }],
      constructor: "c",
      toString: 1,
    };
    expect(renderChatRequest(parseChatRequest(request))).toMatchObject({
      constructor: "c",
      toString: 1,
    });
    const response = {
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [],
      constructor: "c",
    };
    const rendered = renderChatResponse(parseChatResponse(response));
    expect(Object.hasOwn(rendered, "constructor")).toBe(true);
    expect(rendered).toStrictEqual(normalizeChatResponse(response));
  });

  it("normalize is idempotent: a normalised value is its own normal form", () => {
    fc.assert(
      fc.property(chatRequestWire, chatResponseWire, (request, response) => {
        const r = normalizeChatRequest(request);
        expect(normalizeChatRequest(r)).toStrictEqual(r);
        const s = normalizeChatResponse(response);
        expect(normalizeChatResponse(s)).toStrictEqual(s);
      }),
    );
  });
});

/**
 * Law 2 runs on the canonical values chat expresses: `toChatExpressibleRequest/Response`
 * (src/testing.ts) restrict the core-types arbitraries and say exactly what is left out.
 */
describe("law 2: parse(render(c)) equals c for what chat expresses", () => {
  it("requests", () => {
    fc.assert(
      fc.property(canonical.request.map(toChatExpressibleRequest).map(asJson), (request) => {
        const warnings: unknown[] = [];
        const wire = renderChatRequest(request, { onWarning: (w) => warnings.push(w) });
        expect(parseChatRequest(wire)).toStrictEqual(request);
        expect(warnings).toEqual([]);
      }),
    );
  });

  it("requests rendered with max_tokens for DeepSeek-style upstreams", () => {
    fc.assert(
      fc.property(canonical.request.map(toChatExpressibleRequest).map(asJson), (request) => {
        const wire = renderChatRequest(request, { maxTokensField: "max_tokens" });
        expect(wire.max_completion_tokens).toBeUndefined();
        expect(parseChatRequest(wire)).toStrictEqual(request);
      }),
    );
  });

  it("responses", () => {
    fc.assert(
      fc.property(canonical.response.map(toChatExpressibleResponse).map(asJson), (response) => {
        const warnings: unknown[] = [];
        const wire = renderChatResponse(response, { onWarning: (w) => warnings.push(w) });
        expect(parseChatResponse(wire)).toStrictEqual(response);
        expect(warnings).toEqual([]);
      }),
    );
  });

  it("render never throws on any canonical response, and warns instead of dropping silently", () => {
    fc.assert(
      fc.property(canonical.response, (response) => {
        const warnings: { feature: string }[] = [];
        renderChatResponse(response, { onWarning: (w) => warnings.push(w) });
        const expressible = toChatExpressibleResponse(response);
        const lossy =
          response.providerExtras !== undefined ||
          outputsOf(response).some(
            (c) =>
              c.stopSequence !== undefined ||
              c.providerExtras !== undefined ||
              // Signatures and redacted thinking travel in reasoning_details; media does not.
              c.message.parts.some((p) => p.type === "image" || p.type === "file"),
          );
        if (lossy) expect(warnings.length).toBeGreaterThan(0);
        expect(outputsOf(expressible).length).toBe(outputsOf(response).length);
      }),
    );
  });
});

const expressibleEvents = canonical.streamEvents(
  canonical.response.map(toChatExpressibleResponse).map(asJson),
);

describe("law 3: decode(encode(events)) equals events", () => {
  it("after normalizeStreamEvents (chat has no part framing)", () => {
    fc.assert(
      fc.property(expressibleEvents, (events) => {
        const decoded = decodeChatMessages(
          encodeChatEvents(events, { providerExtras: { openai: { includeUsage: true } } }),
        );
        for (const event of decoded) expect(streamEventSchema.safeParse(event).success).toBe(true);
        expect(normalizeStreamEvents(decoded)).toStrictEqual(normalizeStreamEvents(events));
      }),
    );
  });

  it("exactly, event for event, for canonical event sequences", () => {
    fc.assert(
      fc.property(expressibleEvents, (events) => {
        const decoded = decodeChatMessages(
          encodeChatEvents(events, { providerExtras: { openai: { includeUsage: true } } }),
        );
        // Chat finishes each choice in its own chunk and reports usage last: the canonical order.
        expect(decoded).toStrictEqual(events);
      }),
    );
  });
});

describe("law 4: a stream, accumulated, equals the non-streamed response", () => {
  it("canonical side: events -> chat chunks -> events -> accumulate equals render -> parse", () => {
    fc.assert(
      fc.property(canonical.response.map(toChatExpressibleResponse).map(asJson), (response) => {
        const viaBody = parseChatResponse(renderChatResponse(response));
        const viaStream = accumulateStream(
          decodeChatMessages(
            encodeChatEvents(responseToEvents(response), {
              providerExtras: { openai: { includeUsage: true } },
            }),
          ),
        );
        expect(viaStream).toStrictEqual(viaBody);
      }),
    );
  });

  it("wire side: an upstream's chunks accumulate to the parse of its body", () => {
    fc.assert(
      fc.property(chatStreamWire, ({ response, chunks }) => {
        const { extras: _extras, ...body } = parseChatResponse(response);
        expect(accumulateStream(decodeChatMessages(chatChunksToSse(chunks)))).toStrictEqual(body);
      }),
    );
  });
});
