import { zLooseObject, zObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/**
 * Zod schemas of Veo on the Gemini API: the `POST /v1beta/models/{model}:predictLongRunning` body
 * and the long-running operation `GET /v1beta/{name}` returns. Field names follow the Gemini
 * Developer API as the official SDK (googleapis/js-genai, "mldev" converters) sends them.
 */

/** Images go as `{bytesBase64Encoded, mimeType}` (what we render); `{inlineData}` is also read. */
export const veoBytesImageSchema = zObject({
  bytesBase64Encoded: z.string().check(z.minLength(1)),
  mimeType: z.string().check(z.minLength(1)),
});
export const veoInlineImageSchema = zObject({
  inlineData: zObject({
    mimeType: z.string().check(z.minLength(1)),
    data: z.string().check(z.minLength(1)),
  }),
});
export const veoImageWireSchema = z.union([veoBytesImageSchema, veoInlineImageSchema]);

export const veoReferenceTypes = ["asset", "style"] as const;
export const veoReferenceImageWireSchema = zObject({
  image: veoImageWireSchema,
  referenceType: z.enum(veoReferenceTypes),
});

/** A video to extend: the `uri` of an earlier generated sample. */
export const veoVideoWireSchema = zObject({ uri: z.string().check(z.minLength(1)) });

export const veoAspectRatios = ["16:9", "9:16"] as const;
export const veoResolutions = ["720p", "1080p", "4k"] as const;
export const veoPersonGenerations = ["allow_all", "allow_adult", "dont_allow"] as const;
export const veoResizeModes = ["pad", "crop"] as const;
/** The upstream takes 1 to 4 samples per request. */
export const VEO_MAX_SAMPLES = 4;
/** At most three asset reference images. */
export const VEO_MAX_REFERENCE_IMAGES = 3;

export const veoInstanceSchema = zObject({
  prompt: z.string().check(z.minLength(1)),
  image: z.optional(veoImageWireSchema),
  lastFrame: z.optional(veoImageWireSchema),
  referenceImages: z.optional(
    z
      .array(veoReferenceImageWireSchema)
      .check(z.minLength(1))
      .check(z.maxLength(VEO_MAX_REFERENCE_IMAGES)),
  ),
  video: z.optional(veoVideoWireSchema),
});

export const veoParametersSchema = zObject({
  aspectRatio: z.optional(z.enum(veoAspectRatios)),
  durationSeconds: z.optional(z.int().check(z.gte(1)).check(z.lte(60))),
  resolution: z.optional(z.enum(veoResolutions)),
  sampleCount: z.optional(z.int().check(z.gte(1)).check(z.lte(VEO_MAX_SAMPLES))),
  seed: z.optional(z.int().check(z.gte(0)).check(z.lte(4_294_967_295))),
  personGeneration: z.optional(z.enum(veoPersonGenerations)),
  negativePrompt: z.optional(z.string()),
  enhancePrompt: z.optional(z.boolean()),
  generateAudio: z.optional(z.boolean()),
  resizeMode: z.optional(z.enum(veoResizeModes)),
});

/** One instance per request: the SDK always sends `instances[0]` only. */
export const veoPredictRequestSchema = zObject({
  instances: z.tuple([veoInstanceSchema]),
  parameters: z.optional(veoParametersSchema),
});

// ---- the operation ---------------------------------------------------------------------------

/** A generated sample; the Gemini API sends a download `uri` (`encoding` is its MIME type). */
export const veoGeneratedSampleSchema = zLooseObject({
  video: z.optional(
    zLooseObject({
      uri: z.optional(z.string()),
      encoding: z.optional(z.string()),
      mimeType: z.optional(z.string()),
    }),
  ),
});

export const veoGenerateVideoResponseSchema = zLooseObject({
  generatedSamples: z.optional(z.array(veoGeneratedSampleSchema)),
  raiMediaFilteredCount: z.optional(z.int().check(z.nonnegative())),
  raiMediaFilteredReasons: z.optional(z.array(z.string())),
});

/** google.rpc.Status */
export const veoOperationErrorSchema = zLooseObject({
  code: z.int(),
  message: z.optional(z.string()),
  status: z.optional(z.string()),
});

export const veoOperationSchema = zLooseObject({
  name: z.string().check(z.minLength(1)).check(z.maxLength(1024)),
  done: z.optional(z.boolean()),
  metadata: z.optional(z.record(z.string(), z.unknown())),
  error: z.optional(veoOperationErrorSchema),
  response: z.optional(
    zLooseObject({
      "@type": z.optional(z.string()),
      generateVideoResponse: z.optional(veoGenerateVideoResponseSchema),
    }),
  ),
});

export type VeoImageWire = z.infer<typeof veoImageWireSchema>;
export type VeoReferenceImageWire = z.infer<typeof veoReferenceImageWireSchema>;
export type VeoVideoWire = z.infer<typeof veoVideoWireSchema>;
export type VeoInstanceWire = z.infer<typeof veoInstanceSchema>;
export type VeoParametersWire = z.infer<typeof veoParametersSchema>;
export type VeoPredictRequestWire = z.infer<typeof veoPredictRequestSchema>;
export type VeoOperationWire = z.infer<typeof veoOperationSchema>;
export type VeoAspectRatio = (typeof veoAspectRatios)[number];
export type VeoResolution = (typeof veoResolutions)[number];
export type VeoPersonGeneration = (typeof veoPersonGenerations)[number];
export type VeoResizeMode = (typeof veoResizeModes)[number];
