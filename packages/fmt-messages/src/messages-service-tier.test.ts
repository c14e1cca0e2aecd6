import type { Usage } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { renderMessagesUsage } from "./map-messages-usage.js";

const usage = (serviceTier?: string): Usage => ({
  inputTokens: 10,
  outputTokens: 2,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
  ...(serviceTier === undefined ? {} : { serviceTier }),
});

describe("service_tier toward messages", () => {
  it("keeps Anthropic's tiers and writes OpenAI's default as standard", () => {
    for (const tier of ["standard", "priority", "batch"]) {
      expect(renderMessagesUsage(usage(tier)).service_tier).toBe(tier);
    }
    expect(renderMessagesUsage(usage("default")).service_tier).toBe("standard");
  });
  it("a tier outside Anthropic's enum is null, never copied", () => {
    for (const tier of ["auto", "flex", "on_demand", "constructor"]) {
      expect(renderMessagesUsage(usage(tier)).service_tier).toBeNull();
    }
    expect(renderMessagesUsage(usage()).service_tier).toBeNull();
  });
});
