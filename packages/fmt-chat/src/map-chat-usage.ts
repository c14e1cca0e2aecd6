import { type Usage, unknownUsage } from "@interlingua/core-types";
import type { ChatUsage } from "./chat-api.js";

/**
 * OpenAI usage -> canonical. prompt_tokens already includes cached tokens and completion_tokens
 * already includes reasoning tokens, which is the canonical meaning, so the totals carry over and
 * the details become the subsets. A reply without usage parses to `known: false` (not free).
 */
export function parseChatUsage(
  usage: ChatUsage | null | undefined,
  serviceTier?: string | null,
): Usage {
  const out: Usage =
    usage == null
      ? unknownUsage()
      : {
          inputTokens: usage.prompt_tokens ?? 0,
          outputTokens: usage.completion_tokens ?? 0,
          cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
          cacheWriteTokens: usage.prompt_tokens_details?.cache_write_tokens ?? 0,
          thinkingTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
        };
  if (typeof serviceTier === "string") out.serviceTier = serviceTier;
  return out;
}

/** The chat usage object in full; total_tokens is recomputed, never trusted from elsewhere. */
export interface RenderedChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
}

export function renderChatUsage(usage: Usage): RenderedChatUsage {
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: {
      cached_tokens: usage.cachedInputTokens,
      cache_write_tokens: usage.cacheWriteTokens,
    },
    completion_tokens_details: { reasoning_tokens: usage.thinkingTokens },
  };
}

/**
 * Canonical usage fields chat has no place for (service tier goes to `service_tier`), each read
 * from the usage, keyed by the name its dropped warning gives it (`usage.<name>`).
 */
export const usageFieldsChatDrops: Readonly<Record<string, (usage: Usage) => unknown>> = {
  cacheWrite5mTokens: (usage) => usage.cacheWrite5mTokens,
  cacheWrite1hTokens: (usage) => usage.cacheWrite1hTokens,
  inferenceGeo: (usage) => usage.providerExtras?.anthropic?.inferenceGeo,
  providerExtras: (usage) => usage.providerExtras?.gemini,
};
