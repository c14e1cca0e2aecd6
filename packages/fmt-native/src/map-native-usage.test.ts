import type { Usage, Warning } from "@interlingua/core-types";
import * as arb from "@interlingua/core-types/testing";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseNativeUsage, renderNativeUsage } from "./map-native-usage.js";

describe("promptTokenCount includes cached tokens (no double count) and thoughts tokens added to output", () => {
  it("reads the upstream's counts into the canonical meaning", () => {
    expect(
      parseNativeUsage({
        promptTokenCount: 1000,
        cachedContentTokenCount: 800,
        candidatesTokenCount: 50,
        thoughtsTokenCount: 200,
        totalTokenCount: 1250,
        promptTokensDetails: [{ modality: "TEXT", tokenCount: 900 }, { modality: "IMAGE" }],
        serviceTier: "standard",
      }),
    ).toEqual({
      // 1000, not 1800: the 800 cached tokens are already among the prompt tokens.
      inputTokens: 1000,
      cachedInputTokens: 800,
      // 250: the 200 thought tokens are not among the candidate tokens.
      outputTokens: 250,
      thinkingTokens: 200,
      cacheWriteTokens: 0,
      providerExtras: {
        gemini: {
          inputTokensByModality: [
            { modality: "TEXT", tokenCount: 900 },
            { modality: "IMAGE", tokenCount: 0 },
          ],
        },
      },
      serviceTier: "standard",
    } satisfies Usage);
  });

  it("renders the inverse: candidates exclude thoughts, the total is input + output", () => {
    expect(
      renderNativeUsage({
        inputTokens: 1000,
        cachedInputTokens: 800,
        outputTokens: 250,
        thinkingTokens: 200,
        cacheWriteTokens: 0,
      }),
    ).toEqual({
      promptTokenCount: 1000,
      cachedContentTokenCount: 800,
      candidatesTokenCount: 50,
      thoughtsTokenCount: 200,
      totalTokenCount: 1250,
    });
  });

  it("round-trips every usage without cache writes", () => {
    fc.assert(
      fc.property(arb.usage, (usage) => {
        const { cacheWrite5mTokens: _a, cacheWrite1hTokens: _b, ...rest } = usage;
        const noWrites: Usage = {
          ...rest,
          inputTokens: usage.inputTokens - usage.cacheWriteTokens,
          cacheWriteTokens: 0,
        };
        expect(parseNativeUsage(renderNativeUsage(noWrites))).toEqual(noWrites);
      }),
    );
  });

  it("keeps cache writes counted in the prompt and reports the lost split", () => {
    const warnings: Warning[] = [];
    const metadata = renderNativeUsage(
      {
        inputTokens: 100,
        outputTokens: 5,
        cachedInputTokens: 10,
        cacheWriteTokens: 40,
        thinkingTokens: 0,
      },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(metadata.promptTokenCount).toBe(100);
    expect(warnings).toEqual([
      expect.objectContaining({ type: "dropped", feature: "usage.cacheWriteTokens" }),
    ]);
    const silent: Warning[] = [];
    renderNativeUsage(
      {
        inputTokens: 1,
        outputTokens: 1,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
      },
      { onWarning: (w) => silent.push(w) },
    );
    expect(silent).toEqual([]);
  });

  it("reads a missing usageMetadata as unknown: zero counts marked known: false, not free", () => {
    expect(parseNativeUsage(undefined)).toStrictEqual({
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
      known: false,
    });
  });
});
