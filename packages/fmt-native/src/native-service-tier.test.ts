import type { Usage, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { renderNativeUsage } from "./map-native-usage.js";

const usage = (serviceTier: string): Usage => ({
  inputTokens: 10,
  outputTokens: 2,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
  serviceTier,
});

describe("serviceTier toward Gemini", () => {
  it("keeps Gemini's tiers and writes OpenAI's default as standard", () => {
    for (const tier of ["unspecified", "flex", "standard", "priority"]) {
      expect(renderNativeUsage(usage(tier)).serviceTier).toBe(tier);
    }
    expect(renderNativeUsage(usage("default")).serviceTier).toBe("standard");
  });
  it("leaves out a tier outside Gemini's enum, with a warning", () => {
    for (const tier of ["auto", "batch", "on_demand", "constructor"]) {
      const warnings: Warning[] = [];
      const out = renderNativeUsage(usage(tier), { onWarning: (w) => warnings.push(w) });
      expect(out.serviceTier).toBeUndefined();
      expect(warnings.map((w) => w.feature)).toEqual(["usage.serviceTier"]);
    }
  });
});
