/**
 * What each client format's stream carries, from the loss tables of the fmt-* READMEs. The
 * cross-format fixture test compares everything else exactly; these tables are its only
 * exclusions, and it checks the "not carried" entries really are not carried (so a table cannot
 * hide a loss the format could avoid).
 */
import type { IndexedOutput, ModalityTokenCount, Usage } from "@interlingua/core-types";

/**
 * `responses` is OpenAI's real Responses API; `interlinguaResponses` is docs/api-reference.md's
 * shape, with the same stream, so the same rows.
 */
export type Format = "chat" | "messages" | "native" | "responses" | "interlinguaResponses";
export type PartKind = "text" | "thinking" | "tool-call" | "redacted-thinking";

/**
 * Parts whose signature survives the format's stream. chat carries all three in
 * `reasoning_details` entries; responses the thinking signature as `encrypted_content` and text
 * and tool-call signatures in marked reasoning items; messages a thinking part's
 * (`signature_delta`) and a tool call's (Gemini's, in a marked empty thinking block after the
 * `tool_use`; text signatures are dropped, `parts.signature`);
 * native all three (`thoughtSignature`; a thinking signature rides on the next call or text and
 * decodes back onto its thinking part).
 */
export const signedKinds: Record<Format, ReadonlySet<PartKind>> = {
  chat: new Set(["text", "thinking", "tool-call"]),
  messages: new Set(["thinking", "tool-call"]),
  responses: new Set(["text", "thinking", "tool-call"]),
  interlinguaResponses: new Set(["text", "thinking", "tool-call"]),
  native: new Set(["text", "thinking", "tool-call"]),
};

/** Usage with its provider extras lifted out as fields of their own, named as the loss tables do. */
export type UsageView = Omit<Usage, "providerExtras"> & {
  inferenceGeo?: string;
  inputTokensByModality?: ModalityTokenCount[];
};

export function usageView({ providerExtras, ...counts }: Usage): UsageView {
  const view: UsageView = { ...counts };
  const geo = providerExtras?.anthropic?.inferenceGeo;
  if (geo !== undefined) view.inferenceGeo = geo;
  const byModality = providerExtras?.gemini?.inputTokensByModality;
  if (byModality !== undefined) view.inputTokensByModality = byModality;
  return view;
}

/**
 * Usage fields each stream carries. Compared: the fields both sides carry. Dropped per the loss
 * tables: chat the ttl split, modality counts and geo; native cache writes (still inside
 * promptTokenCount), the split and geo; responses cache writes, modality, tier and geo.
 */
export const usageFields: Record<Format, ReadonlyArray<keyof UsageView>> = {
  chat: [
    "inputTokens",
    "outputTokens",
    "cachedInputTokens",
    "cacheWriteTokens",
    "thinkingTokens",
    "serviceTier",
  ],
  messages: [
    "inputTokens",
    "outputTokens",
    "cachedInputTokens",
    "cacheWriteTokens",
    "thinkingTokens",
    "cacheWrite5mTokens",
    "cacheWrite1hTokens",
    "serviceTier",
    "inferenceGeo",
  ],
  native: [
    "inputTokens",
    "outputTokens",
    "cachedInputTokens",
    "thinkingTokens",
    "inputTokensByModality",
    "serviceTier",
  ],
  responses: ["inputTokens", "outputTokens", "cachedInputTokens", "thinkingTokens"],
  interlinguaResponses: ["inputTokens", "outputTokens", "cachedInputTokens", "thinkingTokens"],
};

/**
 * The service tier each format writes for a canonical one (fmt-* READMEs): another provider's
 * equivalent is renamed (`standard` <-> OpenAI's `default`), a tier outside the format's enum is
 * left out, or written as the format's default where it always has one (messages: `standard`).
 * Idempotent, so it applies to both sides of a comparison.
 */
const keepTier = (tier: string) => tier;
export const tierAs: Record<Format, (tier: string) => string | undefined> = {
  chat: (tier) =>
    tier === "standard" ? "default" : tier === "batch" || tier === "unspecified" ? undefined : tier,
  messages: (tier) => (["priority", "batch"].includes(tier) ? tier : "standard"),
  native: (tier) =>
    tier === "default"
      ? "standard"
      : ["unspecified", "flex", "standard", "priority"].includes(tier)
        ? tier
        : undefined,
  responses: keepTier,
  interlinguaResponses: keepTier,
};

/** The tier a format writes when none is known (messages: Anthropic's `standard`, always a string). */
export const tierWhenNone: Partial<Record<Format, string>> = { messages: "standard" };

/**
 * Formats whose streams report usage only at the end (OpenAI's usage chunk, Responses'
 * response.completed), and the usage fields a format's stream can write only before that
 * (messages: tier, geo and cache ttl split ride on message_start; message_delta has counts only).
 */
export const usageAtEnd: ReadonlySet<Format> = new Set([
  "chat",
  "responses",
  "interlinguaResponses",
]);
export const startOnlyUsage: Record<Format, ReadonlyArray<keyof UsageView>> = {
  chat: [],
  messages: ["serviceTier", "inferenceGeo", "cacheWrite5mTokens", "cacheWrite1hTokens"],
  native: [],
  responses: [],
  interlinguaResponses: [],
};

/** Finish fields besides the reason: stopSequence is messages-only, safetyRatings native-only. */
export const finishExtraOf = {
  stopSequence: (finish: Pick<IndexedOutput, "stopSequence">) => finish.stopSequence,
  safetyRatings: (finish: Pick<IndexedOutput, "providerExtras">) =>
    finish.providerExtras?.gemini?.safetyRatings,
};
export const finishExtras: Record<Format, ReadonlyArray<keyof typeof finishExtraOf>> = {
  chat: [],
  messages: ["stopSequence"],
  native: ["safetyRatings"],
  responses: [],
  interlinguaResponses: [],
};

/**
 * Formats whose in-stream error ends the stream (Anthropic's `error` event; responses'
 * `error` + `response.failed`; Gemini's error frame, after which only usage is written, issue
 * 26): what follows a first error is not carried.
 */
export const errorEndsStream: ReadonlySet<Format> = new Set([
  "messages",
  "responses",
  "interlinguaResponses",
  "native",
]);

/**
 * Formats whose in-stream error carries the HTTP status (chat `code`, native `code`, responses via
 * OpenAI's codes). The messages error carries only Anthropic's error type, so the status is the
 * one that type stands for.
 */
export const errorCarriesStatus: ReadonlySet<Format> = new Set([
  "chat",
  "native",
  "responses",
  "interlinguaResponses",
]);

/**
 * native sends arguments as a JSON object (`functionCall.args`), so the argument text comes back
 * re-serialised: the same JSON value, not the same whitespace.
 */
export const argumentsAsObject: ReadonlySet<Format> = new Set(["native"]);

/**
 * The format whose stream a format writes: `interlinguaResponses` shares `responses`' encoder and
 * decoder, so a recording of one through the other is a same-format round trip, not a translation.
 */
export const streamOf = (format: Format): Format =>
  format === "interlinguaResponses" ? "responses" : format;
