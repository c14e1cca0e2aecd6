import { invalidFromZod } from "@interlingua/errors";
import * as z from "zod/mini";
import { asyncFields, asyncFieldsShape, nonBlank } from "./common-fields.js";
import type { Language } from "./language.js";
import { httpUrlProblem, videoImageUrlProblem } from "./media-url.js";
import { fieldError, requireObject } from "./request-error.js";
import {
  canonicalVideoModel,
  isOfficialVideoModel,
  isStandardVideoModel,
  OFFICIAL_VIDEO_MODELS,
  STANDARD_VIDEO_MODELS,
} from "./video-models.js";

export type AspectRatio = "16:9" | "9:16";
export type GenerationType = "frame" | "reference";

/** docs/api-reference.md "standard video generation", camel-cased; defaults applied, generation type inferred. */
export interface StandardVideoRequest {
  variant: "standard";
  model: string;
  canonicalModel: string;
  prompt: string;
  duration: 8;
  aspectRatio?: AspectRatio;
  /** undefined: text-to-video. One image is the first frame (image-to-video). */
  generationType?: GenerationType;
  imageUrls: string[];
  resolution: "720p" | "1080p" | "4k";
  enableGif: boolean;
  officialFallback: boolean;
  webhook?: string;
  language?: Language;
}

/** docs/api-reference.md "official video variant", camel-cased; defaults applied. */
export interface OfficialVideoRequest {
  variant: "official";
  model: string;
  canonicalModel: string;
  prompt: string;
  negativePrompt?: string;
  duration: 4 | 6 | 8;
  aspectRatio: AspectRatio;
  resolution: "720p" | "1080p" | "4K";
  firstFrameImage?: string;
  lastFrameImage?: string;
  seed?: number;
  sampleCount: number;
  generateAudio?: boolean;
  personGeneration: "allow_adult" | "disallow";
  /** Image-to-video only; `pad` when an image is given and no mode is. */
  resizeMode?: "pad" | "crop";
  enhancePrompt: true;
  webhook?: string;
  language?: Language;
}

export type VideoRequest = StandardVideoRequest | OfficialVideoRequest;

export const MAX_VIDEO_IMAGE_URLS = 3;
export const SEED_MAX = 4294967295;

const aspectRatio = z.enum(["16:9", "9:16"]);

const standardWireSchema = z.strictObject({
  model: z.string(),
  prompt: nonBlank(),
  duration: z.exactOptional(z.literal(8, { error: "must be the number 8 (seconds)" })),
  aspect_ratio: z.exactOptional(aspectRatio),
  generation_type: z.exactOptional(z.enum(["frame", "reference"])),
  image_urls: z.exactOptional(
    z
      .array(z.string())
      .check(
        z.maxLength(MAX_VIDEO_IMAGE_URLS, { error: `at most ${MAX_VIDEO_IMAGE_URLS} images` }),
      ),
  ),
  resolution: z.exactOptional(z.enum(["720p", "1080p", "4k"])),
  enable_gif: z.exactOptional(z.boolean()),
  official_fallback: z.exactOptional(z.boolean()),
  ...asyncFieldsShape,
});
type StandardWire = z.infer<typeof standardWireSchema>;

const officialWireSchema = z.strictObject({
  model: z.string(),
  prompt: nonBlank(),
  negative_prompt: z.exactOptional(z.string()),
  duration: z.exactOptional(
    z.union([z.literal(4), z.literal(6), z.literal(8)], {
      error: "must be 4, 6 or 8 as a bare number",
    }),
  ),
  aspect_ratio: z.exactOptional(aspectRatio),
  resolution: z.exactOptional(z.enum(["720p", "1080p", "4K"])),
  first_frame_image: z.exactOptional(z.string()),
  last_frame_image: z.exactOptional(z.string()),
  seed: z.exactOptional(
    z
      .int({ error: "must be an integer from 0 to 4294967295" })
      .check(z.gte(0, { error: "must be an integer from 0 to 4294967295" }))
      .check(z.lte(SEED_MAX, { error: "must be an integer from 0 to 4294967295" })),
  ),
  sample_count: z.exactOptional(
    z
      .int({ error: "must be an integer from 1 to 4" })
      .check(z.gte(1, { error: "must be an integer from 1 to 4" }))
      .check(z.lte(4, { error: "must be an integer from 1 to 4" })),
  ),
  generate_audio: z.exactOptional(z.boolean()),
  person_generation: z.exactOptional(z.enum(["allow_adult", "disallow"])),
  resize_mode: z.exactOptional(z.enum(["pad", "crop"])),
  enhance_prompt: z.exactOptional(
    z.literal(true, { error: "only true is accepted; omit the field when not needed" }),
  ),
  ...asyncFieldsShape,
});
type OfficialWire = z.infer<typeof officialWireSchema>;

/** A cross-field rule: when `broken` holds, the request is refused with a 400 naming `param`. */
export interface RequestRule<W> {
  param: string;
  message: string;
  broken: (wire: W) => boolean;
}

const isLite = (w: StandardWire) => canonicalVideoModel(w.model) === "vidV3.1-lite";
const isQuality = (w: StandardWire) => canonicalVideoModel(w.model) === "vidV3.1-quality";
const imageCount = (w: StandardWire) => w.image_urls?.length ?? 0;

/** The image count's meaning when generation_type is omitted (the API reference: 2 frame, 3 reference). */
export function inferGenerationType(imageCount: number): GenerationType | undefined {
  if (imageCount === 0) return undefined;
  return imageCount >= 3 ? "reference" : "frame";
}

/** The API reference's standard-video table, row by row. Checked in order; the first broken rule answers. */
export const standardVideoRules: readonly RequestRule<StandardWire>[] = [
  {
    param: "generation_type",
    message: "vidV3.1-lite does not accept generation_type",
    broken: (w) => isLite(w) && w.generation_type !== undefined,
  },
  {
    param: "image_urls",
    message: "vidV3.1-lite does not accept image_urls",
    broken: (w) => isLite(w) && w.image_urls !== undefined,
  },
  {
    param: "official_fallback",
    message: "vidV3.1-lite does not accept official_fallback",
    broken: (w) => isLite(w) && w.official_fallback !== undefined,
  },
  {
    param: "generation_type",
    message: "needs image_urls (frame: first and last frame; reference: reference images)",
    broken: (w) => w.generation_type !== undefined && imageCount(w) === 0,
  },
  {
    param: "generation_type",
    message: "frame takes at most 2 images (first frame, then last frame)",
    broken: (w) => w.generation_type === "frame" && imageCount(w) > 2,
  },
  {
    param: "generation_type",
    message: "vidV3.1-quality does not support reference",
    broken: (w) => isQuality(w) && w.generation_type === "reference",
  },
  {
    param: "image_urls",
    message: "3 images mean reference mode, which vidV3.1-quality does not support",
    broken: (w) =>
      isQuality(w) &&
      w.generation_type === undefined &&
      inferGenerationType(imageCount(w)) === "reference",
  },
  {
    param: "enable_gif",
    message: "GIF output cannot be combined with 1080p or 4k",
    broken: (w) => w.enable_gif === true && (w.resolution === "1080p" || w.resolution === "4k"),
  },
];

/** The API reference's official-variant table and its mode rule. */
export const officialVideoRules: readonly RequestRule<OfficialWire>[] = [
  {
    param: "last_frame_image",
    message: "is used together with first_frame_image",
    broken: (w) => w.last_frame_image !== undefined && w.first_frame_image === undefined,
  },
  {
    param: "resize_mode",
    message: "applies only to image-to-video (give first_frame_image)",
    broken: (w) => w.resize_mode !== undefined && w.first_frame_image === undefined,
  },
];

function checkRules<W>(rules: readonly RequestRule<W>[], wire: W): void {
  const broken = rules.find((rule) => rule.broken(wire));
  if (broken) throw fieldError(broken.param, broken.message);
}

function parseWire<S extends z.ZodMiniType>(schema: S, body: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidFromZod(parsed.error, what);
  return parsed.data;
}

/** The body's `model`, checked to be a video model; the variant follows from it. */
function videoModel(body: Record<string, unknown>): string {
  const model = body["model"];
  if (model === undefined) throw fieldError("model", "field required");
  if (typeof model !== "string") throw fieldError("model", "must be a string");
  if (!isStandardVideoModel(model) && !isOfficialVideoModel(model)) {
    const known = [...STANDARD_VIDEO_MODELS, ...OFFICIAL_VIDEO_MODELS].join(", ");
    // At most 256 characters of the id: the body cap is the only bound on one.
    const named = JSON.stringify(model.length <= 256 ? model : `${model.slice(0, 256)}…`);
    throw fieldError("model", `unknown video model ${named}; use one of ${known}`);
  }
  return model;
}

/**
 * A `POST /v1/videos/generations` body -> a VideoRequest, the variant chosen by the model.
 * Throws a 400 GatewayError naming the field for every rule the API reference's tables state; unknown fields
 * are refused too (a typo would otherwise silently change the video).
 */
export function parseVideoRequest(body: unknown): VideoRequest {
  const object = requireObject(body, "video request");
  const model = videoModel(object);
  return isOfficialVideoModel(model) ? parseOfficial(object) : parseStandard(object);
}

function parseStandard(body: Record<string, unknown>): StandardVideoRequest {
  const w = parseWire(standardWireSchema, body, "standard video request");
  checkRules(standardVideoRules, w);
  const imageUrls = (w.image_urls ?? []).map((url, i) => {
    const problem = videoImageUrlProblem(url);
    if (problem) throw fieldError(`image_urls[${i}]`, problem);
    return url.trim();
  });
  const generationType = w.generation_type ?? inferGenerationType(imageUrls.length);
  return {
    variant: "standard",
    model: w.model,
    canonicalModel: canonicalVideoModel(w.model),
    prompt: w.prompt,
    duration: 8,
    ...(w.aspect_ratio === undefined ? {} : { aspectRatio: w.aspect_ratio }),
    ...(generationType === undefined ? {} : { generationType }),
    imageUrls,
    resolution: w.resolution ?? "720p",
    enableGif: w.enable_gif ?? false,
    officialFallback: w.official_fallback ?? false,
    ...asyncFields(w),
  };
}

function imageField(param: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const problem = httpUrlProblem(value);
  if (problem) throw fieldError(param, problem);
  return value.trim();
}

function parseOfficial(body: Record<string, unknown>): OfficialVideoRequest {
  const w = parseWire(officialWireSchema, body, "official video request");
  checkRules(officialVideoRules, w);
  const firstFrameImage = imageField("first_frame_image", w.first_frame_image);
  const lastFrameImage = imageField("last_frame_image", w.last_frame_image);
  const resizeMode = w.resize_mode ?? (firstFrameImage === undefined ? undefined : "pad");
  return {
    variant: "official",
    model: w.model,
    canonicalModel: canonicalVideoModel(w.model),
    prompt: w.prompt,
    ...(w.negative_prompt === undefined ? {} : { negativePrompt: w.negative_prompt }),
    duration: w.duration ?? 8,
    aspectRatio: w.aspect_ratio ?? "16:9",
    resolution: w.resolution ?? "720p",
    ...(firstFrameImage === undefined ? {} : { firstFrameImage }),
    ...(lastFrameImage === undefined ? {} : { lastFrameImage }),
    ...(w.seed === undefined ? {} : { seed: w.seed }),
    sampleCount: w.sample_count ?? 1,
    ...(w.generate_audio === undefined ? {} : { generateAudio: w.generate_audio }),
    personGeneration: w.person_generation ?? "allow_adult",
    ...(resizeMode === undefined ? {} : { resizeMode }),
    enhancePrompt: true,
    ...asyncFields(w),
  };
}
