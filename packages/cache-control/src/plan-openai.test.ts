import { promptCacheKey, stripCacheControl } from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import { renderChatRequest } from "@interlingua/fmt-chat";
import { planOpenAI } from "@interlingua/fmt-chat/protocol";
import { planOpenAIResponses } from "@interlingua/fmt-responses/protocol";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cacheControlPaths, chatRequest, text } from "../test/requests.js";
import { analyzeCache } from "./analyze-cache.js";
import type { CachedAnalysis } from "./cache-analysis.js";
import { cacheKey } from "./cache-key.js";

describe("planOpenAI", () => {
  const request = chatRequest(
    [
      { role: "user", content: [text("A long document.", "5m")] },
      { role: "user", content: "Question?" },
    ],
    { service_tier: "flex" },
  );
  const analysis = analyzeCache(request, "chat") as CachedAnalysis;
  const key = cacheKey({ user: "u1", channel: "c1", model: "gpt-5", request, analysis });

  it("strips boundaries and sends prompt_cache_key beside the other chat extras", () => {
    const out = planOpenAI(request, key);
    expect(out).toEqual({
      ...stripCacheControl(request),
      extras: { chat: { service_tier: "flex", prompt_cache_key: `il-${key.slice(0, 32)}` } },
    });
    const wire = renderChatRequest(out);
    expect(wire.prompt_cache_key).toBe(promptCacheKey(key));
    expect(wire.messages).toEqual([
      { role: "user", content: "A long document." },
      { role: "user", content: "Question?" },
    ]);
    expect(request.extras).toEqual({ chat: { service_tier: "flex" } });
  });

  it("the prompt_cache_key is short, stable per key and different across keys", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9a-f]{64}$/),
        fc.stringMatching(/^[0-9a-f]{64}$/),
        (a, b) => {
          expect(promptCacheKey(a)).toBe(promptCacheKey(a));
          expect(promptCacheKey(a)).toMatch(/^il-[0-9a-f]{32}$/);
          if (a.slice(0, 32) !== b.slice(0, 32))
            expect(promptCacheKey(a)).not.toBe(promptCacheKey(b));
        },
      ),
    );
  });

  it("never leaves a cacheControl and never mutates", () => {
    fc.assert(
      fc.property(arb.request, fc.stringMatching(/^[0-9a-f]{64}$/), (input, k) => {
        const before = structuredClone(input);
        const out = planOpenAI(input, k);
        expect(cacheControlPaths(out)).toEqual([]);
        expect(out.extras?.chat?.prompt_cache_key).toBe(promptCacheKey(k));
        expect(input).toEqual(before);
      }),
    );
  });
});

describe("planOpenAIResponses", () => {
  it("strips boundaries and sends prompt_cache_key beside the other responses extras", () => {
    fc.assert(
      fc.property(arb.request, fc.stringMatching(/^[0-9a-f]{64}$/), (input, k) => {
        const request = { ...input, extras: { ...input.extras, responses: { store: false } } };
        const before = structuredClone(request);
        const out = planOpenAIResponses(request, k);
        expect(cacheControlPaths(out)).toEqual([]);
        expect(out.extras?.["responses"]).toEqual({
          store: false,
          prompt_cache_key: promptCacheKey(k),
        });
        expect({ ...out, extras: { ...out.extras, responses: undefined } }).toEqual({
          ...stripCacheControl(request),
          extras: { ...stripCacheControl(request).extras, responses: undefined },
        });
        expect(request).toEqual(before);
      }),
    );
  });
});
