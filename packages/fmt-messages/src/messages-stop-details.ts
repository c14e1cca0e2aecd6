import type { FinishReason } from "@interlingua/core-types";
import { isMessagesStopReason, renderMessagesFinishReason } from "./map-messages-finish-reason.js";

/** Anthropic's `stop_details` on a refusal; `category` and `explanation` may each be null. */
export interface MessagesStopDetails {
  type: "refusal";
  category: string | null;
  explanation: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A refusal's `stop_details` (message or message_delta) read onto the finish reason. */
export function withStopDetails(finishReason: FinishReason, details: unknown): FinishReason {
  if (!isObject(details) || details["type"] !== "refusal") return finishReason;
  const out: FinishReason = { ...finishReason };
  if (typeof details["category"] === "string") out.category = details["category"];
  if (typeof details["explanation"] === "string") out.explanation = details["explanation"];
  return out;
}

/**
 * The `stop_details` a messages client reads for a finish reason: null unless the stop renders as
 * `refusal`. A refusal or block from another upstream (Gemini SAFETY, PROHIBITED_CONTENT, OpenAI
 * content_filter, ...) names its raw reason in `explanation`, so the client still learns why; the
 * category is the upstream's own only when Anthropic gave one. An Anthropic refusal that came
 * without details stays null, so same-format round trips are exact.
 */
export function renderStopDetails(finishReason: FinishReason): MessagesStopDetails | null {
  if (renderMessagesFinishReason(finishReason) !== "refusal") return null;
  const raw = finishReason.raw;
  const foreign = raw !== undefined && !isMessagesStopReason(raw);
  const explanation =
    finishReason.explanation ?? (foreign ? `blocked upstream: ${raw}` : undefined);
  if (explanation === undefined && finishReason.category === undefined) return null;
  return {
    type: "refusal",
    category: finishReason.category ?? null,
    explanation: explanation ?? null,
  };
}
