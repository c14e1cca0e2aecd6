import * as z from "zod";

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

const inlineData = z.object({ mimeType: z.string().min(1), data: z.string().min(1) });

export const geminiImageRequestPartSchema = z.union([
  z.object({ text: z.string().min(1) }),
  z.object({ inlineData }),
]);

export const geminiImageConfigSchema = z.object({
  aspectRatio: z.enum(geminiImageAspectRatios).optional(),
  imageSize: z.enum(geminiImageSizes).optional(),
});

export const geminiImageRequestSchema = z.object({
  contents: z.tuple([
    z.object({ role: z.literal("user"), parts: z.array(geminiImageRequestPartSchema).min(1) }),
  ]),
  generationConfig: z.object({
    responseModalities: z.array(z.enum(geminiResponseModalities)).min(1),
    imageConfig: geminiImageConfigSchema.optional(),
  }),
});

// ---- the reply -------------------------------------------------------------------------------

const count = z.int().nonnegative();

export const geminiImageResponsePartSchema = z.looseObject({
  text: z.string().optional(),
  /** Gemini 3 image models send interim "thought" images; they are not results. */
  thought: z.boolean().optional(),
  inlineData: z.looseObject({ mimeType: z.string(), data: z.string() }).optional(),
});

export const geminiImageCandidateSchema = z.looseObject({
  content: z.looseObject({ parts: z.array(geminiImageResponsePartSchema).optional() }).optional(),
  finishReason: z.string().optional(),
  finishMessage: z.string().optional(),
});

export const geminiImageResponseSchema = z.looseObject({
  candidates: z.array(geminiImageCandidateSchema).optional(),
  promptFeedback: z
    .looseObject({ blockReason: z.string().optional(), blockReasonMessage: z.string().optional() })
    .optional(),
  usageMetadata: z
    .looseObject({
      promptTokenCount: count.optional(),
      candidatesTokenCount: count.optional(),
      thoughtsTokenCount: count.optional(),
      totalTokenCount: count.optional(),
    })
    .optional(),
  modelVersion: z.string().optional(),
  responseId: z.string().optional(),
});

export type GeminiImageAspectRatio = (typeof geminiImageAspectRatios)[number];
export type GeminiImageSize = (typeof geminiImageSizes)[number];
export type GeminiImageRequestWire = z.infer<typeof geminiImageRequestSchema>;
export type GeminiImageResponseWire = z.infer<typeof geminiImageResponseSchema>;
