import { describe, expect, it } from "vitest";
import { cachedThrough } from "../test/analyses.js";
import { canonical, userText } from "../test/requests.js";
import { estimatePrefixTokens, MEDIA_TOKEN_ESTIMATE } from "./estimate-prefix-tokens.js";
import { MIN_CACHE_TOKENS, minCacheTokens } from "./min-cache-tokens.js";

describe("estimatePrefixTokens", () => {
  it("counts system, tools and prefix at four characters a token, media at a fixed amount", () => {
    const tool = { type: "function" as const, name: "f", parameters: {} };
    const request = canonical(
      [
        {
          role: "user",
          parts: [
            { type: "text", text: "x".repeat(400) },
            { type: "image", source: { type: "url", url: "https://x.test/a.png" } },
          ],
        },
        {
          role: "assistant",
          parts: [{ type: "tool-call", id: "c", name: "f", arguments: '{"a":1}' }],
        },
        {
          role: "tool",
          parts: [
            {
              type: "tool-result",
              toolCallId: "c",
              content: [
                { type: "text", text: "y".repeat(40) },
                { type: "image", source: { type: "base64", mediaType: "image/png", data: "AAAA" } },
              ],
            },
          ],
        },
        userText("z".repeat(4000)),
      ],
      { system: [{ type: "text", text: "s".repeat(80) }], tools: [tool] },
    );
    const chars = 80 + JSON.stringify(tool).length + 400 + 1 + 7 + 40;
    expect(estimatePrefixTokens(request, cachedThrough(3))).toBe(
      Math.ceil(chars / 4) + 2 * MEDIA_TOKEN_ESTIMATE,
    );
    // The live message is not part of the prefix.
    expect(estimatePrefixTokens(request, cachedThrough(3))).toBeLessThan(1024);
  });
});

describe("minCacheTokens", () => {
  it.each([
    ["anthropic", "claude-sonnet-4-5-20250929", 1024],
    ["anthropic", "claude-opus-4-5-20251101", 4096],
    ["anthropic", "claude-opus-4-6", 4096],
    ["anthropic", "claude-haiku-4-5", 4096],
    ["anthropic", "claude-sonnet-4-6", 2048],
    ["gemini", "gemini-2.5-flash", 1024],
    ["gemini", "gemini-3-flash-preview", 1024],
    ["gemini", "gemini-2.5-pro", 4096],
    ["gemini", "gemini-3.1-pro-preview", 4096],
    ["gemini", "models/gemini-3-pro-preview", 4096],
    ["openai", "gpt-5", 1024],
  ] as const)("%s %s needs %i tokens", (protocol, model, tokens) => {
    expect(minCacheTokens(protocol, model)).toBe(tokens);
  });

  it("has a default for every upstream protocol", () => {
    expect(
      Object.fromEntries(Object.entries(MIN_CACHE_TOKENS).map(([k, v]) => [k, v.default])),
    ).toEqual({
      anthropic: 1024,
      gemini: 1024,
      openai: 1024,
      "openai-responses": 1024,
    });
  });
});
