import { isUsageKnown } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseResponsesUsage } from "./map-responses-usage.js";

describe("parseResponsesUsage", () => {
  it("reads a missing usage as unknown (known: false), not as a free call", () => {
    for (const usage of [undefined, null]) {
      expect(isUsageKnown(parseResponsesUsage(usage))).toBe(false);
    }
  });

  it("a reported usage is known, with its cached and reasoning subsets", () => {
    const usage = parseResponsesUsage({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 7,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 17,
    });
    expect(usage).toStrictEqual({
      inputTokens: 10,
      outputTokens: 7,
      cachedInputTokens: 4,
      cacheWriteTokens: 0,
      thinkingTokens: 3,
    });
  });
});
