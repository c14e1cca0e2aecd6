import type { FinishReason, UnifiedFinishReason } from "@interlingua/core-types";

/** Every finishReason the upstream documents, mapped to the unified value. */
export const nativeFinishReasonTable: Readonly<Record<string, UnifiedFinishReason>> = {
  STOP: "stop",
  MAX_TOKENS: "length",
  SAFETY: "content-filter",
  RECITATION: "content-filter",
  LANGUAGE: "content-filter",
  BLOCKLIST: "content-filter",
  PROHIBITED_CONTENT: "content-filter",
  SPII: "content-filter",
  IMAGE_SAFETY: "content-filter",
  IMAGE_PROHIBITED_CONTENT: "content-filter",
  IMAGE_RECITATION: "content-filter",
  MALFORMED_FUNCTION_CALL: "error",
  UNEXPECTED_TOOL_CALL: "error",
  TOO_MANY_TOOL_CALLS: "error",
  MISSING_THOUGHT_SIGNATURE: "error",
  OTHER: "other",
  IMAGE_OTHER: "other",
  NO_IMAGE: "other",
  FINISH_REASON_UNSPECIFIED: "other",
};

/** The value rendered for a unified reason whose raw value is not one of this format's. */
export const unifiedToNativeFinishReason: Readonly<Record<UnifiedFinishReason, string>> = {
  stop: "STOP",
  length: "MAX_TOKENS",
  // The upstream ends a turn of function calls with STOP; the calls themselves say the rest.
  "tool-calls": "STOP",
  "content-filter": "SAFETY",
  error: "OTHER",
  other: "OTHER",
};

/**
 * The upstream adds finish reasons over time, always as SCREAMING_SNAKE enum names; the other
 * formats' raw values are lowercase, so this tells a future upstream value from a foreign one.
 */
const nativeEnumName = /^[A-Z][A-Z0-9_]*$/;

/**
 * `STOP` on a candidate that called functions means "the calls are the answer": unified
 * `tool-calls`, raw `STOP` kept so that rendering back gives STOP.
 */
export function parseNativeFinishReason(
  raw: string | undefined,
  hasToolCalls: boolean,
  finishMessage?: string,
): FinishReason {
  // A candidate without a finishReason (a blocked or cut-off reply) did not say why it ended.
  if (raw === undefined) return { unified: "other" };
  const unified = nativeFinishReasonTable[raw] ?? "other";
  const reason: FinishReason = {
    unified: unified === "stop" && hasToolCalls ? "tool-calls" : unified,
    raw,
  };
  // The candidate's own words on why it stopped; other formats show them beside a refusal.
  if (finishMessage !== undefined) reason.explanation = finishMessage;
  return reason;
}

/** A candidate's `finishMessage`: the finish reason's explanation (e.g. an Anthropic refusal's). */
export const renderNativeFinishMessage = (reason: FinishReason): { finishMessage?: string } =>
  reason.explanation === undefined ? {} : { finishMessage: reason.explanation };

export function renderNativeFinishReason(reason: FinishReason): string {
  if (reason.raw !== undefined && nativeEnumName.test(reason.raw)) return reason.raw;
  return unifiedToNativeFinishReason[reason.unified];
}
