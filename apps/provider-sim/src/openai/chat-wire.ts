import type { PlannedToolCall, PlannedUsage, StopKind } from "../core/reply-plan.ts";

// Pieces of the chat-completions wire shared by the whole response and the stream.

export type CompletionMeta = { id: string; created: number; model: string };

export const SYSTEM_FINGERPRINT = "fp_provider_sim";

export const FINISH_REASON: Record<StopKind, string> = {
  end: "stop",
  max_tokens: "length",
  tool_use: "tool_calls",
};

/** With `functions`, OpenAI ends a call turn with `function_call`, not `tool_calls`. */
export const legacyFinish = (reason: string, legacy: boolean): string =>
  legacy && reason === "tool_calls" ? "function_call" : reason;

export function toolCallId(call: PlannedToolCall): string {
  return `call_${call.id}`;
}

/** prompt_tokens include cached tokens; completion_tokens include reasoning tokens. */
export function chatUsage(usage: PlannedUsage) {
  const completion = usage.outputTokens + usage.thinkingTokens;
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: completion,
    total_tokens: usage.promptTokens + completion,
    prompt_tokens_details: { cached_tokens: usage.cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.thinkingTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}
