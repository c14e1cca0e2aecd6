import type { FinishReason, UnifiedFinishReason } from "@interlingua/core-types";

/** Every stop_reason the Anthropic API documents, with its unified meaning. */
export const MESSAGES_STOP_REASONS = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "tool-calls",
  refusal: "content-filter",
  pause_turn: "other",
} as const satisfies Record<string, UnifiedFinishReason>;
export type MessagesStopReason = keyof typeof MESSAGES_STOP_REASONS;

/**
 * Unified -> stop_reason when the raw value is not an Anthropic one. `error` and `other` have no
 * Anthropic equivalent, so they render as `null` (the API's "no reason stated") rather than a
 * misleading `end_turn`.
 */
export const UNIFIED_TO_MESSAGES_STOP_REASON = {
  stop: "end_turn",
  length: "max_tokens",
  "tool-calls": "tool_use",
  "content-filter": "refusal",
  error: null,
  other: null,
} as const satisfies Record<UnifiedFinishReason, MessagesStopReason | null>;

export const isMessagesStopReason = (raw: string): raw is MessagesStopReason =>
  Object.hasOwn(MESSAGES_STOP_REASONS, raw);

/** stop_reason -> canonical, raw always kept; unknown future values are `other`. */
export function parseMessagesFinishReason(stopReason: string | null | undefined): FinishReason {
  if (stopReason === null || stopReason === undefined) return { unified: "other" };
  const unified = isMessagesStopReason(stopReason) ? MESSAGES_STOP_REASONS[stopReason] : "other";
  return { unified, raw: stopReason };
}

/** Canonical -> stop_reason: the raw value when it is an Anthropic one, else the table's. */
export function renderMessagesFinishReason(finishReason: FinishReason): string | null {
  const raw = finishReason.raw;
  if (raw !== undefined && isMessagesStopReason(raw)) return raw;
  return UNIFIED_TO_MESSAGES_STOP_REASON[finishReason.unified];
}
