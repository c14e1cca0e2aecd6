import { type RenderOptions, type Usage, unknownUsage } from "@interlingua/core-types";
import type { NativeUsageMetadata } from "./native-api.js";

/**
 * usageMetadata -> canonical usage. promptTokenCount already INCLUDES cachedContentTokenCount, so
 * it is the canonical input as is; candidatesTokenCount EXCLUDES thoughtsTokenCount, so the
 * canonical output adds them. The upstream reports no cache writes. totalTokenCount is derived
 * (input + output) and not read, since it can also count tool-use prompt tokens. A reply without
 * usageMetadata parses to `known: false` (not free).
 */
export function parseNativeUsage(metadata: NativeUsageMetadata | undefined): Usage {
  if (metadata === undefined) return unknownUsage();
  const thinking = metadata.thoughtsTokenCount ?? 0;
  const usage: Usage = {
    inputTokens: metadata.promptTokenCount ?? 0,
    outputTokens: (metadata.candidatesTokenCount ?? 0) + thinking,
    cachedInputTokens: metadata.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
    thinkingTokens: thinking,
  };
  if (metadata.promptTokensDetails !== undefined) {
    const inputTokensByModality = metadata.promptTokensDetails.map((d) => ({
      modality: d.modality,
      tokenCount: d.tokenCount ?? 0,
    }));
    usage.providerExtras = { gemini: { inputTokensByModality } };
  }
  if (metadata.serviceTier !== undefined) usage.serviceTier = metadata.serviceTier;
  return usage;
}

/** Gemini's tiers, and OpenAI's `default`, which is Gemini's `standard`; any other is left out. */
const NATIVE_TIERS: Readonly<Partial<Record<string, string>>> = {
  unspecified: "unspecified",
  flex: "flex",
  standard: "standard",
  priority: "priority",
  default: "standard",
};

/**
 * The inverse. Cache writes stay counted in promptTokenCount (they are prompt tokens); only their
 * split is lost, reported when non-zero. Zero thought and cached counts are omitted, as the
 * upstream omits them.
 */
export function renderNativeUsage(usage: Usage, options?: RenderOptions): NativeUsageMetadata {
  const metadata: NativeUsageMetadata = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: Math.max(0, usage.outputTokens - usage.thinkingTokens),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
  if (usage.thinkingTokens > 0) metadata.thoughtsTokenCount = usage.thinkingTokens;
  if (usage.cachedInputTokens > 0) metadata.cachedContentTokenCount = usage.cachedInputTokens;
  const byModality = usage.providerExtras?.gemini?.inputTokensByModality;
  if (byModality !== undefined) metadata.promptTokensDetails = byModality.map((d) => ({ ...d }));
  if (usage.serviceTier !== undefined) {
    const tier = Object.hasOwn(NATIVE_TIERS, usage.serviceTier)
      ? NATIVE_TIERS[usage.serviceTier]
      : undefined;
    if (tier !== undefined) metadata.serviceTier = tier;
    else {
      options?.onWarning?.({
        type: "dropped",
        feature: "usage.serviceTier",
        message: `service tier "${usage.serviceTier}" has no Gemini equivalent`,
      });
    }
  }
  if (usage.cacheWriteTokens > 0) {
    options?.onWarning?.({
      type: "dropped",
      feature: "usage.cacheWriteTokens",
      message: `usageMetadata has no cache-write count; the ${usage.cacheWriteTokens} cache-write tokens stay counted in promptTokenCount`,
    });
  }
  if (usage.providerExtras?.anthropic?.inferenceGeo !== undefined) {
    options?.onWarning?.({
      type: "dropped",
      feature: "usage.inferenceGeo",
      message: "usageMetadata has no inference geography",
    });
  }
  return metadata;
}
