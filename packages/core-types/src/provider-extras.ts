import * as z from "zod";
import { safetySettingSchema } from "./safety.js";

const count = z.number().int().nonnegative();

/*
 * Provider-only fields: what one provider's API says and no other format has a field for. They
 * sit under `providerExtras.<provider>` so that the top level of the canonical model holds only
 * what every format maps, and a renderer for another provider knows at a glance what it drops.
 * Unlike `extras` (a format's unknown wire fields, kept verbatim), these are typed and read by
 * the codecs.
 */

export const geminiRequestExtrasSchema = z.object({
  /** An upstream cache resource named by the caller (Gemini `cachedContent`). */
  cachedContent: z.string().exactOptional(),
  /** Gemini `safetySettings`: per-category block thresholds. */
  safetySettings: z.array(safetySettingSchema).exactOptional(),
});
export type GeminiRequestExtras = z.infer<typeof geminiRequestExtrasSchema>;

/** `request.providerExtras`. */
export const requestProviderExtrasSchema = z.object({
  gemini: geminiRequestExtrasSchema.exactOptional(),
});
export type RequestProviderExtras = z.infer<typeof requestProviderExtrasSchema>;

export const modalityTokenCountSchema = z.object({ modality: z.string(), tokenCount: count });
export type ModalityTokenCount = z.infer<typeof modalityTokenCountSchema>;

export const geminiUsageExtrasSchema = z.object({
  /** Prompt tokens by modality (Gemini `promptTokensDetails`). */
  inputTokensByModality: z.array(modalityTokenCountSchema).exactOptional(),
});
export type GeminiUsageExtras = z.infer<typeof geminiUsageExtrasSchema>;

/** `usage.providerExtras`. */
export const usageProviderExtrasSchema = z.object({
  gemini: geminiUsageExtrasSchema.exactOptional(),
});
export type UsageProviderExtras = z.infer<typeof usageProviderExtrasSchema>;
