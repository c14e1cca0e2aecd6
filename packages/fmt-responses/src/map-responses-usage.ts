import { emptyUsage, type Usage, unknownUsage, type Warning } from "@interlingua/core-types";
import type { ResponsesResultUsage } from "./responses-api.js";
import type { ResponsesUsage } from "./responses-stream-api.js";

/**
 * The spec's result usage has three counts. prompt_tokens counts every prompt token (OpenAI
 * convention: cached tokens included) and completion_tokens every generated one (reasoning
 * included), so they are the canonical totals as they are; the breakdowns have no field.
 */
export function parseInterlinguaResponsesUsage(usage: ResponsesResultUsage): Usage {
  return {
    ...emptyUsage(),
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
  };
}

/** Breakdowns that the target cannot carry, for warnings: a zero or absent one loses nothing. */
const breakdowns = [
  "cachedInputTokens",
  "cacheWriteTokens",
  "thinkingTokens",
  "cacheWrite5mTokens",
  "cacheWrite1hTokens",
] as const;

export function renderInterlinguaResponsesUsage(
  usage: Usage,
  warn: (warning: Warning) => void,
): ResponsesResultUsage {
  for (const key of breakdowns) {
    const value = usage[key];
    if (value !== undefined && value > 0) {
      warn({
        type: "dropped",
        feature: `usage.${key}`,
        message: `usage.${key} (${value}) has no field in the responses result; the totals include it`,
      });
    }
  }
  reportDroppedUsageLabels(usage, warn);
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/**
 * OpenAI Responses usage: input_tokens includes cached tokens, output_tokens reasoning ones. A
 * response without usage parses to `known: false` (not free).
 */
export function parseResponsesUsage(usage: ResponsesUsage | null | undefined): Usage {
  if (usage == null) return unknownUsage();
  return {
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: usage.input_tokens_details?.cache_write_tokens ?? 0,
    thinkingTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

export function renderResponsesUsage(
  usage: Usage,
  warn: (warning: Warning) => void,
): ResponsesUsage {
  // Cache writes have a field (input_tokens_details.cache_write_tokens); their ttl split has none.
  for (const key of ["cacheWrite5mTokens", "cacheWrite1hTokens"] as const) {
    const value = usage[key];
    if (value !== undefined && value > 0) {
      warn({
        type: "dropped",
        feature: `usage.${key}`,
        message: `usage.${key} (${value}) has no field in Responses usage; input_tokens includes it`,
      });
    }
  }
  reportDroppedUsageLabels(usage, warn);
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: {
      cached_tokens: usage.cachedInputTokens,
      cache_write_tokens: usage.cacheWriteTokens,
    },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.thinkingTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** Usage labels Responses usage has no field for, keyed by the name a warning gives each. */
const droppedUsageLabels: Readonly<Record<string, (usage: Usage) => unknown>> = {
  serviceTier: (usage) => usage.serviceTier,
  inferenceGeo: (usage) => usage.providerExtras?.anthropic?.inferenceGeo,
  providerExtras: (usage) => usage.providerExtras?.gemini,
};

function reportDroppedUsageLabels(usage: Usage, warn: (warning: Warning) => void): void {
  for (const [key, read] of Object.entries(droppedUsageLabels)) {
    if (read(usage) !== undefined) {
      warn({ type: "dropped", feature: `usage.${key}`, message: `usage.${key} has no field here` });
    }
  }
}
