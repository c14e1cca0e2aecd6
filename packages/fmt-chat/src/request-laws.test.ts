import * as canonical from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { normalizeChatRequest } from "./normalize-chat-request.js";
import { normalizeChatResponse } from "./normalize-chat-response.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { renderChatRequest } from "./render-chat-request.js";
import { renderChatResponse } from "./render-chat-response.js";
import {
  asJson,
  chatRequestWire,
  chatResponseWire,
  fc,
  toChatExpressibleRequest,
} from "./testing.js";

// The examples and the idempotence property below check a request and a response together:
// they stay whole here rather than split in two.
describe("law 1: render(parse(w)) equals normalize(w)", () => {
  it("requests", () => {
    fc.assert(
      fc.property(chatRequestWire, (wire) => {
        expect(renderChatRequest(parseChatRequest(wire))).toStrictEqual(normalizeChatRequest(wire));
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
 * Law 2 runs on the canonical values chat expresses: `toChatExpressibleRequest`
 * (src/testing.ts) restricts the core-types arbitrary and says exactly what is left out.
 */
describe("law 2: parse(render(c)) equals c", () => {
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
});
