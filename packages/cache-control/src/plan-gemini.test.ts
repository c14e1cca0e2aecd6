import { type Request, stripCacheControl, type Warning } from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import { GatewayError } from "@interlingua/errors";
import { renderNativeRequest } from "@interlingua/fmt-native";
import { planGemini } from "@interlingua/fmt-native/protocol";
import { nativeCachedContentCreateSchema } from "@interlingua/fmt-native/schemas";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cachedThrough } from "../test/analyses.js";
import { cacheControlPaths, cc, chatRequest, nativeRequest, text } from "../test/requests.js";
import { analyzeCache } from "./analyze-cache.js";
import type { CachedAnalysis } from "./cache-analysis.js";

const weather = {
  name: "weather",
  description: "Weather for a city",
  parameters: { type: "object", properties: { city: { type: "string" } } },
};

const body = {
  systemInstruction: { parts: [{ text: "You are terse." }] },
  tools: [{ functionDeclarations: [weather] }],
  toolConfig: { functionCallingConfig: { mode: "AUTO" } },
  generationConfig: { temperature: 0.2, maxOutputTokens: 64 },
  contents: [
    {
      role: "user",
      parts: [{ text: "A long document." }, { text: "Read it.", cache_control: cc("1h") }],
    },
    { role: "model", parts: [{ functionCall: { name: "weather", args: { city: "Oslo" } } }] },
    {
      role: "user",
      parts: [
        { functionResponse: { name: "weather", response: { temp: 3 } }, cache_control: cc("1h") },
      ],
    },
    { role: "model", parts: [{ text: "3 degrees." }] },
    { role: "user", parts: [{ text: "And tomorrow?" }] },
  ],
};

describe("planGemini", () => {
  const request = nativeRequest(body);
  const analysis = analyzeCache(request, "native") as CachedAnalysis;

  it("create is the real cachedContents body: model, prefix contents, system, tools, ttl", () => {
    const { create } = planGemini(request, analysis, "gemini-3.6-flash");
    expect(create).toEqual({
      model: "models/gemini-3.6-flash",
      contents: [
        { role: "user", parts: [{ text: "A long document." }, { text: "Read it." }] },
        { role: "model", parts: [{ functionCall: { name: "weather", args: { city: "Oslo" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "weather", response: { temp: 3 } } }] },
      ],
      systemInstruction: { parts: [{ text: "You are terse." }] },
      tools: [{ functionDeclarations: [weather] }],
      toolConfig: { functionCallingConfig: { mode: "AUTO" } },
      ttl: "3600s",
    });
    expect(nativeCachedContentCreateSchema.safeParse(create).success).toBe(true);
  });

  it("suffix holds only the live turns and cachedContent, no system, tools or tool config", () => {
    const { suffix } = planGemini(request, analysis, "gemini-3.6-flash");
    const out = suffix("cachedContents/abc123");
    const stripped = stripCacheControl(request);
    const { toolChoice: _choice, ...rest } = stripped;
    expect(out).toEqual({
      ...rest,
      system: [],
      tools: [],
      messages: stripped.messages.slice(analysis.prefixMessages),
      providerExtras: { gemini: { cachedContent: "cachedContents/abc123" } },
    });
    expect(renderNativeRequest(out)).toEqual({
      contents: [
        { role: "model", parts: [{ text: "3 degrees." }] },
        { role: "user", parts: [{ text: "And tomorrow?" }] },
      ],
      generationConfig: { temperature: 0.2, maxOutputTokens: 64 },
      cachedContent: "cachedContents/abc123",
    });
  });

  it("a live tool result whose call is in the prefix gets the call's name", () => {
    const chat = chatRequest([
      { role: "user", content: [text("doc", "5m")] },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "weather", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
    ]);
    const cut: CachedAnalysis = {
      ...(analyzeCache(chat, "chat") as CachedAnalysis),
      prefixMessages: 2,
    };
    const live = planGemini(chat, cut, "gemini-2.5-flash").suffix("cachedContents/x");
    expect(live.messages).toEqual([
      {
        role: "tool",
        parts: [
          {
            type: "tool-result",
            toolCallId: "call_1",
            name: "weather",
            content: [{ type: "text", text: "sunny" }],
          },
        ],
      },
    ]);
    expect(renderNativeRequest(live).contents).toEqual([
      {
        role: "user",
        parts: [
          { functionResponse: { id: "call_1", name: "weather", response: { result: "sunny" } } },
        ],
      },
    ]);
  });

  it("a chat system-only boundary caches the system text and no contents, 5m as 300s", () => {
    const chat = chatRequest([
      { role: "system", content: [text("Long rules.", null)] },
      { role: "user", content: "q" },
    ]);
    const { create, suffix } = planGemini(
      chat,
      analyzeCache(chat, "chat") as CachedAnalysis,
      "models/gemini-2.5-pro",
    );
    expect(create).toEqual({
      model: "models/gemini-2.5-pro",
      systemInstruction: { parts: [{ text: "Long rules." }] },
      ttl: "300s",
    });
    expect(suffix("cachedContents/s").messages).toEqual(stripCacheControl(chat).messages);
  });

  it("for any renderable request: a valid create body, no cache_control, suffix without system or tools; input untouched", () => {
    fc.assert(
      fc.property(
        arb.request.filter((r) => r.messages.length >= 2),
        fc.nat(),
        fc.constantFrom<"5m" | "1h">("5m", "1h"),
        (request, m, ttl) => {
          const prefixMessages = 1 + (m % (request.messages.length - 1));
          const analysis = cachedThrough(prefixMessages, ttl);
          const before = structuredClone(request);
          let plan: ReturnType<typeof planGemini>;
          try {
            plan = planGemini(request, analysis, "gemini-2.5-flash");
          } catch (error) {
            // What the native format refuses (file ids, nameless tool results) is the codec's 400.
            fc.pre(!(error instanceof GatewayError));
            throw error;
          }
          expect(nativeCachedContentCreateSchema.safeParse(plan.create).success).toBe(true);
          expect(cacheControlPaths(plan.create)).toEqual([]);
          expect(plan.create.ttl).toBe(ttl === "5m" ? "300s" : "3600s");
          // A turn with nothing Gemini can carry (an empty or redacted-thinking-only assistant
          // turn) is left out with a warning by fmt-native, so the prefix may hold fewer.
          expect(plan.create.contents?.length ?? 0).toBeLessThanOrEqual(prefixMessages);
          const out: Request = plan.suffix("cachedContents/n");
          expect(out.system).toEqual([]);
          expect(out.tools).toEqual([]);
          expect("toolChoice" in out).toBe(false);
          expect(out.providerExtras?.gemini?.cachedContent).toBe("cachedContents/n");
          expect(out.messages.length).toBe(request.messages.length - prefixMessages);
          expect(cacheControlPaths(out)).toEqual([]);
          expect(request).toEqual(before);
        },
      ),
    );
  });

  it("reports render losses of the cached part through onWarning", () => {
    const warnings: Warning[] = [];
    const chat = chatRequest([
      {
        role: "user",
        content: [
          {
            type: "image_url",
            image_url: { url: "https://x.test/a", detail: "high" },
            cache_control: cc(),
          },
        ],
      },
      { role: "user", content: "q" },
    ]);
    planGemini(chat, analyzeCache(chat, "chat") as CachedAnalysis, "gemini-2.5-flash", {
      onWarning: (w) => warnings.push(w),
    });
    expect(warnings.map((w) => w.feature)).toEqual([
      "messages[0].parts[0].detail",
      "messages[0].parts[0].source.url",
    ]);
  });
});
