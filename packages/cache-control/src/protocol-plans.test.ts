import {
  type CachePlanInput,
  type Request,
  stripCacheControl,
  type Warning,
} from "@interlingua/core-types";
import { chatProtocol } from "@interlingua/fmt-chat/protocol";
import { messagesProtocol } from "@interlingua/fmt-messages/protocol";
import { nativeProtocol } from "@interlingua/fmt-native/protocol";
import { nativeCachedContentCreateSchema } from "@interlingua/fmt-native/schemas";
import { responsesProtocol } from "@interlingua/fmt-responses/protocol";
import { describe, expect, it } from "vitest";
import { cacheControlPaths, chatRequest, text } from "../test/requests.js";
import { analyzeCache } from "./analyze-cache.js";
import type { CachedAnalysis } from "./cache-analysis.js";
import { cacheKey } from "./cache-key.js";

// Each format package's `Protocol.cachePlan` on one analysed request: what a gateway calls.
const request: Request = {
  ...chatRequest([
    { role: "system", content: "You are terse." },
    { role: "user", content: [text("A long document.", "1h")] },
    { role: "assistant", content: "Read." },
    { role: "user", content: "Question?" },
  ]),
  model: "up-model",
};
const analysis = analyzeCache(request, "chat") as CachedAnalysis;
const key = cacheKey({ user: "u1", channel: "c1", model: "up-model", request, analysis });
const input = (warnings: Warning[] = []): CachePlanInput => ({
  request,
  boundary: analysis.boundary,
  prefixMessages: analysis.prefixMessages,
  ttl: analysis.ttl,
  key,
  scope: "0123456789abcdef",
  onWarning: (warning) => warnings.push(warning),
});

describe("Protocol.cachePlan, per format package", () => {
  it("the analysis caches a prefix", () => {
    expect(analysis.mode).toBe("cached");
    expect(analysis.prefixMessages).toBe(1);
  });

  it("OpenAI chat and Responses: inline, boundaries gone, one prompt_cache_key", () => {
    const chat = chatProtocol.cachePlan(input());
    const responses = responsesProtocol.cachePlan(input());
    expect(chat.kind === "inline" && chat.mode).toBe("openai-key");
    expect(responses.kind === "inline" && responses.mode).toBe("openai-key");
    if (chat.kind !== "inline" || responses.kind !== "inline") return;
    expect(cacheControlPaths(chat.request)).toEqual([]);
    expect(chat.request.extras?.chat?.["prompt_cache_key"]).toBe(`il-${key.slice(0, 32)}`);
    expect(responses.request.extras?.["responses"]?.["prompt_cache_key"]).toBe(
      `il-${key.slice(0, 32)}`,
    );
  });

  it("Anthropic: inline, exactly one breakpoint with the analysis' ttl", () => {
    const plan = messagesProtocol.cachePlan(input());
    expect(plan.kind === "inline" && plan.mode).toBe("anthropic-breakpoint");
    if (plan.kind !== "inline") return;
    expect(cacheControlPaths(plan.request)).toHaveLength(1);
    expect(plan.request.messages[0]?.parts[0]).toMatchObject({
      cacheControl: { type: "ephemeral", ttl: "1h" },
    });
  });

  it("Anthropic: the scope marker leads the system, so another scope's prefix differs", () => {
    const planned = (scope: string) => {
      const plan = messagesProtocol.cachePlan({ ...input(), scope });
      if (plan.kind !== "inline") throw new Error("Anthropic plans inline");
      return plan.request;
    };
    const mine = planned("0123456789abcdef");
    expect(mine.system.map((p) => p.text)).toEqual([
      "[cache scope 0123456789abcdef]",
      "You are terse.",
    ]);
    expect(mine.system[0]).not.toHaveProperty("cacheControl");
    // Everything from the marker on is Anthropic's cached prefix: one scope, one prefix.
    expect(planned("0123456789abcdef")).toEqual(mine);
    expect(planned("fedcba9876543210").system[0]!.text).not.toBe(mine.system[0]!.text);
    expect({ ...planned("fedcba9876543210"), system: [] }).toEqual({ ...mine, system: [] });
  });

  it("Anthropic: a boundary on the system text keeps its breakpoint after the marker", () => {
    const systemOnly: Request = {
      ...chatRequest([
        { role: "system", content: [text("Rules.", "5m")] },
        { role: "user", content: "Question?" },
      ]),
      model: "up-model",
    };
    const cached = analyzeCache(systemOnly, "chat") as CachedAnalysis;
    expect(cached.boundary).toEqual({ area: "system", part: 0 });
    const plan = messagesProtocol.cachePlan({
      ...input(),
      request: systemOnly,
      boundary: cached.boundary,
      prefixMessages: cached.prefixMessages,
      ttl: cached.ttl,
    });
    if (plan.kind !== "inline") throw new Error("Anthropic plans inline");
    expect(cacheControlPaths(plan.request)).toEqual(["system[1].cacheControl"]);
    expect(plan.request.system[0]!.text).toBe("[cache scope 0123456789abcdef]");
  });

  it("Gemini: a cachedContents resource, read back with bounds, then the live suffix", () => {
    const plan = nativeProtocol.cachePlan(input());
    expect(plan.kind).toBe("resource");
    if (plan.kind !== "resource") return;
    expect(plan.mode).toBe("gemini");
    expect(plan.create.path).toBe("/v1beta/cachedContents");
    expect(nativeCachedContentCreateSchema.safeParse(plan.create.body).success).toBe(true);
    expect(plan.create.body).toMatchObject({ model: "models/up-model", ttl: "3600s" });
    expect(plan.ttlSeconds).toBe(3600);

    const expireTime = "2026-11-28T12:00:00Z";
    expect(
      plan.created({
        name: "cachedContents/abc",
        expireTime,
        usageMetadata: { totalTokenCount: 2900 },
      }),
    ).toEqual({ name: "cachedContents/abc", expiresAt: Date.parse(expireTime), tokens: 2900 });
    // Nothing the upstream says is trusted without bounds.
    expect(
      plan.created({ name: "cachedContents/x", usageMetadata: { totalTokenCount: 1e15 } }),
    ).toEqual({ name: "cachedContents/x", tokens: 10_000_000 });
    expect(
      plan.created({ name: "cachedContents/x", usageMetadata: { totalTokenCount: -5 } }),
    ).toEqual({ name: "cachedContents/x", tokens: 0 });
    expect(plan.created({ name: "not-a-cache" })).toBeUndefined();
    expect(plan.created({ name: 42 })).toBeUndefined();
    expect(plan.created("text")).toBeUndefined();

    const suffix = plan.suffix("cachedContents/abc");
    expect(suffix.providerExtras?.gemini?.cachedContent).toBe("cachedContents/abc");
    expect(suffix.system).toEqual([]);
    expect(suffix.messages).toEqual(stripCacheControl(request).messages.slice(1));
  });
});
