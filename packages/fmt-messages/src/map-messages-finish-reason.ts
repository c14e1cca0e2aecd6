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
 * Unified -> stop_reason when the raw value is not an Anthropic one. `error` and `other` with no
 * raw value (a stream or reply that stated no reason) render as `null`, as they came.
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

/**
 * Another upstream's reason with no Anthropic equivalent (Gemini `OTHER`,
 * `MALFORMED_FUNCTION_CALL`, `TOO_MANY_TOOL_CALLS`...): the turn ended, for a reason the messages
 * format cannot name. A finished message's stop_reason is never null ("in non-streaming mode this
 * value is always non-null": SDKs and agent loops branch on it), so it is `end_turn`.
 */
export const isForeignUnnamedReason = (finishReason: FinishReason): boolean =>
  (finishReason.unified === "other" || finishReason.unified === "error") &&
  finishReason.raw !== undefined &&
  !isMessagesStopReason(finishReason.raw);

/**
 * Canonical -> stop_reason: the raw value when it is an Anthropic one, `end_turn` for another
 * upstream's unnamed reason, else the table's (`null` only for a reason no upstream gave).
 */
export function renderMessagesFinishReason(finishReason: FinishReason): string | null {
  const raw = finishReason.raw;
  if (raw !== undefined && isMessagesStopReason(raw)) return raw;
  if (isForeignUnnamedReason(finishReason)) return "end_turn";
  return UNIFIED_TO_MESSAGES_STOP_REASON[finishReason.unified];
}
