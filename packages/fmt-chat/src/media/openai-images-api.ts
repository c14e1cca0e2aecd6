import * as z from "zod";

/**
 * Zod schemas of OpenAI's `POST /v1/images/generations` (GPT image models): the JSON body and the
 * reply. The request schema is strict, as the upstream is (it refuses unknown parameters, e.g.
 * `response_format` on GPT image models with 400 `unknown_parameter`); the reply is loose.
 */

/** The sizes GPT image models take. */
export const openAIImageSizes = ["1024x1024", "1536x1024", "1024x1536", "auto"] as const;
export const openAIImageQualities = ["low", "medium", "high", "auto"] as const;
export const openAIImageBackgrounds = ["transparent", "opaque", "auto"] as const;
export const openAIImageOutputFormats = ["png", "jpeg", "webp"] as const;
/** Only DALL-E models take `response_format`; GPT image models always answer `b64_json`. */
export const openAIImageResponseFormats = ["url", "b64_json"] as const;
/** DALL-E 3's quality words, as the GPT image quality that asks for the same. */
export const dallEQualities = { standard: "medium", hd: "high" } as const satisfies Record<
  string,
  (typeof openAIImageQualities)[number]
>;
/** The upstream's own bound on `n`. */
export const OPENAI_IMAGE_MAX_N = 10;
/** The upstream's prompt bound for GPT image models (characters). */
export const OPENAI_IMAGE_MAX_PROMPT = 32_000;

export const openAIImageRequestSchema = z.strictObject({
  model: z.string().min(1),
  prompt: z.string().min(1).max(OPENAI_IMAGE_MAX_PROMPT),
  n: z.int().min(1).max(OPENAI_IMAGE_MAX_N).optional(),
  size: z.enum(openAIImageSizes).optional(),
  quality: z.enum(openAIImageQualities).optional(),
  background: z.enum(openAIImageBackgrounds).optional(),
  output_format: z.enum(openAIImageOutputFormats).optional(),
  response_format: z.enum(openAIImageResponseFormats).optional(),
  /** The end user's id, for OpenAI's abuse monitoring; every image model takes it. */
  user: z.string().optional(),
});

const tokens = z.int().nonnegative();

export const openAIImageDatumSchema = z
  .looseObject({
    b64_json: z.string().min(1).optional(),
    url: z.string().min(1).max(8192).optional(),
    revised_prompt: z.string().optional(),
  })
  .refine((d) => d.b64_json !== undefined || d.url !== undefined, {
    message: "an image carries b64_json or url",
  });

export const openAIImageUsageSchema = z.looseObject({
  input_tokens: tokens,
  output_tokens: tokens,
  total_tokens: tokens,
  input_tokens_details: z
    .looseObject({ text_tokens: tokens.optional(), image_tokens: tokens.optional() })
    .optional(),
});

export const openAIImageResponseSchema = z.looseObject({
  created: z.int().nonnegative(),
  data: z.array(openAIImageDatumSchema),
  usage: openAIImageUsageSchema.optional(),
  background: z.string().optional(),
  output_format: z.string().optional(),
  quality: z.string().optional(),
  size: z.string().optional(),
});

export type OpenAIImageSize = (typeof openAIImageSizes)[number];
export type OpenAIImageQuality = (typeof openAIImageQualities)[number];
export type OpenAIImageBackground = (typeof openAIImageBackgrounds)[number];
export type OpenAIImageOutputFormat = (typeof openAIImageOutputFormats)[number];
export type OpenAIImageResponseFormat = (typeof openAIImageResponseFormats)[number];
export type OpenAIImageRequestWire = z.infer<typeof openAIImageRequestSchema>;
export type OpenAIImageResponseWire = z.infer<typeof openAIImageResponseSchema>;
