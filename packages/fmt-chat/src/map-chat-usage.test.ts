import { isUsageKnown } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseChatUsage } from "./map-chat-usage.js";
import { parseChatResponse } from "./parse-chat-response.js";

describe("usage the upstream did not report is unknown, not free", () => {
  it("a missing or null usage parses to zero counts marked known: false", () => {
    for (const usage of [undefined, null]) {
      expect(parseChatUsage(usage)).toStrictEqual({
        inputTokens: 0,
        outputTokens: 0,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
        known: false,
      });
    }
  });

  it("a reported usage, zeros included, is known", () => {
    const usage = parseChatUsage({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    expect(isUsageKnown(usage)).toBe(true);
    expect("known" in usage).toBe(false);
  });

  it("a response without usage says so", () => {
    const response = parseChatResponse({
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "hi" }, finish_reason: "stop" }],
    });
    expect(isUsageKnown(response.usage)).toBe(false);
  });
});
