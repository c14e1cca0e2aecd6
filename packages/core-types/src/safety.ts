import * as z from "zod/mini";
import { zObject } from "./zod-object.js";

/** The spec's four harm categories; other strings pass through as the upstream sends them. */
export const harmCategories = [
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
] as const;
export const harmCategorySchema = z.string().check(z.minLength(1));

export const harmThresholdSchema = z.enum([
  "BLOCK_NONE",
  "BLOCK_ONLY_HIGH",
  "BLOCK_MEDIUM_AND_ABOVE",
  "BLOCK_LOW_AND_ABOVE",
  "HARM_BLOCK_THRESHOLD_UNSPECIFIED",
  "OFF",
]);
export type HarmThreshold = z.infer<typeof harmThresholdSchema>;

export const safetySettingSchema = zObject({
  category: harmCategorySchema,
  threshold: harmThresholdSchema,
});
export type SafetySetting = z.infer<typeof safetySettingSchema>;

export const harmProbabilitySchema = z.enum([
  "NEGLIGIBLE",
  "LOW",
  "MEDIUM",
  "HIGH",
  "HARM_PROBABILITY_UNSPECIFIED",
]);
export type HarmProbability = z.infer<typeof harmProbabilitySchema>;

export const safetyRatingSchema = zObject({
  category: harmCategorySchema,
  probability: harmProbabilitySchema,
  blocked: z.exactOptional(z.boolean()),
});
export type SafetyRating = z.infer<typeof safetyRatingSchema>;

export const promptFeedbackSchema = zObject({
  blockReason: z.exactOptional(z.string()),
  safetyRatings: z.exactOptional(z.array(safetyRatingSchema)),
});
export type PromptFeedback = z.infer<typeof promptFeedbackSchema>;
