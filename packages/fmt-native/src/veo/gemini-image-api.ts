import { zLooseObject, zObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/**
 * Gemini image output (`txtC-3-pro-image-preview` and its kin) on `:generateContent`: the body we
 * send and the reply we read. Narrower than `native-api.ts`: only what image generation uses.
 */

/** The ratios the Gemini API documents for `imageConfig.aspectRatio`. */
export const geminiImageAspectRatios = [
  "1:1",
  "2:3",
  "3:2",
  "3:4",
  "4:3",
  "4:5",
  "5:4",
  "9:16",
  "16:9",
  "21:9",
] as const;
/** `imageConfig.imageSize` (longest edge about 1024, 2048, 4096 pixels); uppercase K is required. */
export const geminiImageSizes = ["1K", "2K", "4K"] as const;
export const geminiResponseModalities = ["TEXT", "IMAGE"] as const;

const inlineData = zObject({
  mimeType: z.string().check(z.minLength(1)),
  data: z.string().check(z.minLength(1)),
});

export const geminiImageRequestPartSchema = z.union([
  zObject({ text: z.string().check(z.minLength(1)) }),
  zObject({ inlineData }),
]);

export const geminiImageConfigSchema = zObject({
  aspectRatio: z.optional(z.enum(geminiImageAspectRatios)),
  imageSize: z.optional(z.enum(geminiImageSizes)),
});

export const geminiImageRequestSchema = zObject({
  contents: z.tuple([
    zObject({
      role: z.literal("user"),
      parts: z.array(geminiImageRequestPartSchema).check(z.minLength(1)),
    }),
  ]),
  generationConfig: zObject({
    responseModalities: z.array(z.enum(geminiResponseModalities)).check(z.minLength(1)),
    imageConfig: z.optional(geminiImageConfigSchema),
  }),
});

// ---- the reply -------------------------------------------------------------------------------

const count = z.int().check(z.nonnegative());

export const geminiImageResponsePartSchema = zLooseObject({
  text: z.optional(z.string()),
  /** Gemini 3 image models send interim "thought" images; they are not results. */
  thought: z.optional(z.boolean()),
  inlineData: z.optional(zLooseObject({ mimeType: z.string(), data: z.string() })),
});

export const geminiImageCandidateSchema = zLooseObject({
  content: z.optional(zLooseObject({ parts: z.optional(z.array(geminiImageResponsePartSchema)) })),
  finishReason: z.optional(z.string()),
  finishMessage: z.optional(z.string()),
});

export const geminiImageResponseSchema = zLooseObject({
  candidates: z.optional(z.array(geminiImageCandidateSchema)),
  promptFeedback: z.optional(
    zLooseObject({
      blockReason: z.optional(z.string()),
      blockReasonMessage: z.optional(z.string()),
    }),
  ),
  usageMetadata: z.optional(
    zLooseObject({
      promptTokenCount: z.optional(count),
      candidatesTokenCount: z.optional(count),
      thoughtsTokenCount: z.optional(count),
      totalTokenCount: z.optional(count),
    }),
  ),
  modelVersion: z.optional(z.string()),
  responseId: z.optional(z.string()),
});

export type GeminiImageAspectRatio = (typeof geminiImageAspectRatios)[number];
export type GeminiImageSize = (typeof geminiImageSizes)[number];
export type GeminiImageRequestWire = z.infer<typeof geminiImageRequestSchema>;
export type GeminiImageResponseWire = z.infer<typeof geminiImageResponseSchema>;
