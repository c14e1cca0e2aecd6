import { zLooseObject, zStrictObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/**
 * Zod schemas of OpenAI's `POST /v1/images/generations` (GPT image models): the JSON body and the
 * reply. The request schema is strict, as the upstream is (it refuses unknown parameters, e.g.
 * `response_format` on GPT image models with 400 `unknown_parameter`); the reply is loose.
 */

/** Where the images endpoint is, under an OpenAI channel's base URL. */
export const OPENAI_IMAGES_PATH = "/v1/images/generations";

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

export const openAIImageRequestSchema = zStrictObject({
  model: z.string().check(z.minLength(1)),
  prompt: z.string().check(z.minLength(1)).check(z.maxLength(OPENAI_IMAGE_MAX_PROMPT)),
  n: z.optional(z.int().check(z.gte(1)).check(z.lte(OPENAI_IMAGE_MAX_N))),
  size: z.optional(z.enum(openAIImageSizes)),
  quality: z.optional(z.enum(openAIImageQualities)),
  background: z.optional(z.enum(openAIImageBackgrounds)),
  output_format: z.optional(z.enum(openAIImageOutputFormats)),
  response_format: z.optional(z.enum(openAIImageResponseFormats)),
  /** The end user's id, for OpenAI's abuse monitoring; every image model takes it. */
  user: z.optional(z.string()),
});

const tokens = z.int().check(z.nonnegative());

export const openAIImageDatumSchema = z
  .looseObject({
    b64_json: z.optional(z.string().check(z.minLength(1))),
    url: z.optional(z.string().check(z.minLength(1)).check(z.maxLength(8192))),
    revised_prompt: z.optional(z.string()),
  })
  .check(
    z.refine((d) => d.b64_json !== undefined || d.url !== undefined, {
      message: "an image carries b64_json or url",
    }),
  );

export const openAIImageUsageSchema = zLooseObject({
  input_tokens: tokens,
  output_tokens: tokens,
  total_tokens: tokens,
  input_tokens_details: z.optional(
    zLooseObject({ text_tokens: z.optional(tokens), image_tokens: z.optional(tokens) }),
  ),
});

export const openAIImageResponseSchema = zLooseObject({
  created: z.int().check(z.nonnegative()),
  data: z.array(openAIImageDatumSchema),
  usage: z.optional(openAIImageUsageSchema),
  background: z.optional(z.string()),
  output_format: z.optional(z.string()),
  quality: z.optional(z.string()),
  size: z.optional(z.string()),
});

export type OpenAIImageSize = (typeof openAIImageSizes)[number];
export type OpenAIImageQuality = (typeof openAIImageQualities)[number];
export type OpenAIImageBackground = (typeof openAIImageBackgrounds)[number];
export type OpenAIImageOutputFormat = (typeof openAIImageOutputFormats)[number];
export type OpenAIImageResponseFormat = (typeof openAIImageResponseFormats)[number];
export type OpenAIImageRequestWire = z.infer<typeof openAIImageRequestSchema>;
export type OpenAIImageResponseWire = z.infer<typeof openAIImageResponseSchema>;
