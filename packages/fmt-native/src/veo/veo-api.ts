import * as z from "zod";

/**
 * Zod schemas of Veo on the Gemini API: the `POST /v1beta/models/{model}:predictLongRunning` body
 * and the long-running operation `GET /v1beta/{name}` returns. Field names follow the Gemini
 * Developer API as the official SDK (googleapis/js-genai, "mldev" converters) sends them.
 */

/** Images go as `{bytesBase64Encoded, mimeType}` (what we render); `{inlineData}` is also read. */
export const veoBytesImageSchema = z.object({
  bytesBase64Encoded: z.string().min(1),
  mimeType: z.string().min(1),
});
export const veoInlineImageSchema = z.object({
  inlineData: z.object({ mimeType: z.string().min(1), data: z.string().min(1) }),
});
export const veoImageWireSchema = z.union([veoBytesImageSchema, veoInlineImageSchema]);

export const veoReferenceTypes = ["asset", "style"] as const;
export const veoReferenceImageWireSchema = z.object({
  image: veoImageWireSchema,
  referenceType: z.enum(veoReferenceTypes),
});

/** A video to extend: the `uri` of an earlier generated sample. */
export const veoVideoWireSchema = z.object({ uri: z.string().min(1) });

export const veoAspectRatios = ["16:9", "9:16"] as const;
export const veoResolutions = ["720p", "1080p", "4k"] as const;
export const veoPersonGenerations = ["allow_all", "allow_adult", "dont_allow"] as const;
export const veoResizeModes = ["pad", "crop"] as const;
/** The upstream takes 1 to 4 samples per request. */
export const VEO_MAX_SAMPLES = 4;
/** At most three asset reference images. */
export const VEO_MAX_REFERENCE_IMAGES = 3;

export const veoInstanceSchema = z.object({
  prompt: z.string().min(1),
  image: veoImageWireSchema.optional(),
  lastFrame: veoImageWireSchema.optional(),
  referenceImages: z
    .array(veoReferenceImageWireSchema)
    .min(1)
    .max(VEO_MAX_REFERENCE_IMAGES)
    .optional(),
  video: veoVideoWireSchema.optional(),
});

export const veoParametersSchema = z.object({
  aspectRatio: z.enum(veoAspectRatios).optional(),
  durationSeconds: z.int().min(1).max(60).optional(),
  resolution: z.enum(veoResolutions).optional(),
  sampleCount: z.int().min(1).max(VEO_MAX_SAMPLES).optional(),
  seed: z.int().min(0).max(4_294_967_295).optional(),
  personGeneration: z.enum(veoPersonGenerations).optional(),
  negativePrompt: z.string().optional(),
  enhancePrompt: z.boolean().optional(),
  generateAudio: z.boolean().optional(),
  resizeMode: z.enum(veoResizeModes).optional(),
});

/** One instance per request: the SDK always sends `instances[0]` only. */
export const veoPredictRequestSchema = z.object({
  instances: z.tuple([veoInstanceSchema]),
  parameters: veoParametersSchema.optional(),
});

// ---- the operation ---------------------------------------------------------------------------

/** A generated sample; the Gemini API sends a download `uri` (`encoding` is its MIME type). */
export const veoGeneratedSampleSchema = z.looseObject({
  video: z
    .looseObject({
      uri: z.string().optional(),
      encoding: z.string().optional(),
      mimeType: z.string().optional(),
    })
    .optional(),
});

export const veoGenerateVideoResponseSchema = z.looseObject({
  generatedSamples: z.array(veoGeneratedSampleSchema).optional(),
  raiMediaFilteredCount: z.int().nonnegative().optional(),
  raiMediaFilteredReasons: z.array(z.string()).optional(),
});

/** google.rpc.Status */
export const veoOperationErrorSchema = z.looseObject({
  code: z.int(),
  message: z.string().optional(),
  status: z.string().optional(),
});

export const veoOperationSchema = z.looseObject({
  name: z.string().min(1).max(1024),
  done: z.boolean().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  error: veoOperationErrorSchema.optional(),
  response: z
    .looseObject({
      "@type": z.string().optional(),
      generateVideoResponse: veoGenerateVideoResponseSchema.optional(),
    })
    .optional(),
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
