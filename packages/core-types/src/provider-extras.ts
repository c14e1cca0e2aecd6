import * as z from "zod/mini";
import { promptFeedbackSchema, safetyRatingSchema, safetySettingSchema } from "./safety.js";
import { zObject } from "./zod-object.js";

const count = z.number().check(z.int()).check(z.nonnegative());

/*
 * Provider-only fields: what one provider's API says and no other format has a field for. They
 * sit under `providerExtras.<provider>` so that the top level of the canonical model holds only
 * what every format maps, and a renderer for another provider knows at a glance what it drops.
 * Unlike `extras` (a format's unknown wire fields, kept verbatim), these are typed and read by
 * the codecs.
 */

export const geminiRequestExtrasSchema = zObject({
  /** An upstream cache resource named by the caller (Gemini `cachedContent`). */
  cachedContent: z.exactOptional(z.string()),
  /** Gemini `safetySettings`: per-category block thresholds. */
  safetySettings: z.exactOptional(z.array(safetySettingSchema)),
});
export type GeminiRequestExtras = z.infer<typeof geminiRequestExtrasSchema>;

export const openaiRequestExtrasSchema = zObject({
  /**
   * Chat `stream_options.include_usage`: the client wants a usage chunk ending its stream. It
   * shapes the client's own stream, not an upstream call, so no request renderer reads it.
   */
  includeUsage: z.exactOptional(z.boolean()),
  /**
   * Chat's deprecated `functions` (not `tools`): the client reads a call as `message.function_call`
   * and `finish_reason: "function_call"`, so its reply is rendered that way; the chat request
   * renderer writes `functions` / `function_call` back.
   */
  legacyFunctions: z.exactOptional(z.boolean()),
});
export type OpenaiRequestExtras = z.infer<typeof openaiRequestExtrasSchema>;

/** `request.providerExtras`. */
export const requestProviderExtrasSchema = zObject({
  gemini: z.exactOptional(geminiRequestExtrasSchema),
  openai: z.exactOptional(openaiRequestExtrasSchema),
});
export type RequestProviderExtras = z.infer<typeof requestProviderExtrasSchema>;

export const modalityTokenCountSchema = zObject({ modality: z.string(), tokenCount: count });
export type ModalityTokenCount = z.infer<typeof modalityTokenCountSchema>;

export const geminiUsageExtrasSchema = zObject({
  /** Prompt tokens by modality (Gemini `promptTokensDetails`). */
  inputTokensByModality: z.exactOptional(z.array(modalityTokenCountSchema)),
});
export type GeminiUsageExtras = z.infer<typeof geminiUsageExtrasSchema>;

export const anthropicUsageExtrasSchema = zObject({
  /** Where the reply was computed (Anthropic `usage.inference_geo`). */
  inferenceGeo: z.exactOptional(z.string()),
});
export type AnthropicUsageExtras = z.infer<typeof anthropicUsageExtrasSchema>;

/** `usage.providerExtras`. */
export const usageProviderExtrasSchema = zObject({
  gemini: z.exactOptional(geminiUsageExtrasSchema),
  anthropic: z.exactOptional(anthropicUsageExtrasSchema),
});
export type UsageProviderExtras = z.infer<typeof usageProviderExtrasSchema>;

export const geminiOutputExtrasSchema = zObject({
  /** A candidate's `safetyRatings`. */
  safetyRatings: z.exactOptional(z.array(safetyRatingSchema)),
});
export type GeminiOutputExtras = z.infer<typeof geminiOutputExtrasSchema>;

/** One output's provider-only fields: `alternative.providerExtras`, and on a `finish` event. */
export const outputProviderExtrasSchema = zObject({
  gemini: z.exactOptional(geminiOutputExtrasSchema),
});
export type OutputProviderExtras = z.infer<typeof outputProviderExtrasSchema>;

export const geminiReplyExtrasSchema = zObject({
  /** `promptFeedback`: the prompt's block reason and safety ratings. */
  promptFeedback: z.exactOptional(promptFeedbackSchema),
});
export type GeminiReplyExtras = z.infer<typeof geminiReplyExtrasSchema>;

/** The whole reply's provider-only fields, on a `provider-extras` stream event. */
export const replyProviderExtrasSchema = zObject({
  gemini: z.exactOptional(geminiReplyExtrasSchema),
});
export type ReplyProviderExtras = z.infer<typeof replyProviderExtrasSchema>;

// The response's own fields and its primary output's side by side: the primary output sits at
// the top level of the response, so its provider-only fields do too.
export const geminiResponseExtrasSchema = z.extend(
  geminiReplyExtrasSchema,
  geminiOutputExtrasSchema.shape,
);
export type GeminiResponseExtras = z.infer<typeof geminiResponseExtrasSchema>;

/** `response.providerExtras`: the reply's (prompt feedback) and its primary output's (ratings). */
export const responseProviderExtrasSchema = zObject({
  gemini: z.exactOptional(geminiResponseExtrasSchema),
});
export type ResponseProviderExtras = z.infer<typeof responseProviderExtrasSchema>;
