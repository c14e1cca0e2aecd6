import { invalidFromZod } from "@interlingua/errors";
import * as z from "zod/mini";
import { asyncFields, asyncFieldsShape, nonBlank, oneOfModels } from "./common-fields.js";
import type { Language } from "./language.js";
import { httpUrlProblem } from "./media-url.js";
import { fieldError, requireObject } from "./request-error.js";

/** docs/api-reference.md "POST /v1/images/generations" model ids. */
export const IMAGE_MODELS = ["txtC-3-pro-image-preview", "txtA-image-2"] as const;
export type ImageModel = (typeof IMAGE_MODELS)[number];

/** A ratio such as 16:9 or a pixel size such as 1024x1024. */
export type ImageSize = { aspectRatio: string } | { width: number; height: number };

/** How an OpenAI client wants its images in the synchronous answer (the task keeps files). */
export type ImageResponseFormat = (typeof IMAGE_RESPONSE_FORMATS)[number];
export type ImageQuality = (typeof IMAGE_QUALITIES)[number];
export type ImageStyle = (typeof IMAGE_STYLES)[number];

export interface ImageRequest {
  model: string;
  prompt: string;
  imageUrls: string[];
  size?: ImageSize;
  /** Images to make, 1 to MAX_IMAGES_PER_REQUEST (OpenAI's `n`); absent means 1. */
  n?: number;
  responseFormat?: ImageResponseFormat;
  quality?: ImageQuality;
  style?: ImageStyle;
  /** The end user's id, as OpenAI's `user`. */
  user?: string;
  webhook?: string;
  language?: Language;
}

/** OpenAI Images API fields the official SDKs send (`images.generate`). */
export const IMAGE_RESPONSE_FORMATS = ["url", "b64_json"] as const;
/** GPT image qualities, and DALL-E 3's `standard` / `hd`. */
export const IMAGE_QUALITIES = ["auto", "low", "medium", "high", "standard", "hd"] as const;
export const IMAGE_STYLES = ["vivid", "natural"] as const;
/** OpenAI's own bound on `n`. */
export const MAX_IMAGES_PER_REQUEST = 10;

/** The API reference does not give limits; ours, stated in the README. */
export const MAX_IMAGE_URLS = 16;
export const MAX_RATIO_TERM = 100;
export const MIN_PIXELS = 16;
export const MAX_PIXELS = 8192;

const BASE64_REFUSED =
  "base64 image data is no longer accepted; upload the image with POST /v1/uploads/images and pass {url}";

const imageWireSchema = z.strictObject({
  model: z.enum(IMAGE_MODELS, { error: oneOfModels(IMAGE_MODELS) }),
  prompt: nonBlank(),
  image_urls: z.exactOptional(
    z
      .array(z.strictObject({ url: z.string() }), { error: "must be an array of {url} objects" })
      .check(z.maxLength(MAX_IMAGE_URLS, { error: `at most ${MAX_IMAGE_URLS} images` })),
  ),
  size: z.exactOptional(z.string()),
  n: z.exactOptional(z.int().check(z.gte(1)).check(z.lte(MAX_IMAGES_PER_REQUEST))),
  response_format: z.exactOptional(z.enum(IMAGE_RESPONSE_FORMATS)),
  quality: z.exactOptional(z.enum(IMAGE_QUALITIES)),
  style: z.exactOptional(z.enum(IMAGE_STYLES)),
  user: z.exactOptional(z.string()),
  ...asyncFieldsShape,
});

const RATIO = /^(\d{1,4}):(\d{1,4})$/;
const PIXELS = /^(\d{1,5})[xX×](\d{1,5})$/;

/** `size` -> ratio or pixels; undefined when it is neither (the caller answers 400). */
export function parseImageSize(raw: string): ImageSize | undefined {
  const text = raw.trim();
  const ratio = RATIO.exec(text);
  if (ratio) {
    const [w, h] = [Number(ratio[1]), Number(ratio[2])];
    const ok = (n: number) => n >= 1 && n <= MAX_RATIO_TERM;
    return ok(w) && ok(h) ? { aspectRatio: `${w}:${h}` } : undefined;
  }
  const pixels = PIXELS.exec(text);
  if (pixels) {
    const [width, height] = [Number(pixels[1]), Number(pixels[2])];
    const ok = (n: number) => n >= MIN_PIXELS && n <= MAX_PIXELS;
    return ok(width) && ok(height) ? { width, height } : undefined;
  }
  return undefined;
}

/** Items sent the old way (a bare string, or inline data) get the API reference's "upload first" answer. */
function refuseInlineImages(images: unknown): void {
  if (!Array.isArray(images)) return;
  images.forEach((item, i) => {
    if (typeof item === "string") {
      throw fieldError(
        `image_urls[${i}]`,
        item.trim().startsWith("data:") ? BASE64_REFUSED : "must be an object {url}",
      );
    }
    if (typeof item === "object" && item !== null && !("url" in item)) {
      const keys = Object.keys(item);
      if (keys.some((k) => /b64|base64|data/i.test(k))) {
        throw fieldError(`image_urls[${i}]`, BASE64_REFUSED);
      }
    }
  });
}

/** A `POST /v1/images/generations` body -> ImageRequest. Throws a 400 naming the field. */
export function parseImageRequest(body: unknown): ImageRequest {
  const object = requireObject(body, "image request");
  refuseInlineImages(object["image_urls"]);
  const parsed = imageWireSchema.safeParse(object);
  if (!parsed.success) throw invalidFromZod(parsed.error, "image request");
  const w = parsed.data;
  const imageUrls = (w.image_urls ?? []).map(({ url }, i) => {
    const problem = httpUrlProblem(url);
    if (problem) throw fieldError(`image_urls[${i}].url`, problem);
    return url.trim();
  });
  let size: ImageSize | undefined;
  if (w.size !== undefined) {
    size = parseImageSize(w.size);
    if (!size) {
      throw fieldError(
        "size",
        `must be an aspect ratio such as 16:9 or a pixel size such as 1024x1024 (${MIN_PIXELS} to ${MAX_PIXELS} pixels a side)`,
      );
    }
  }
  return {
    model: w.model,
    prompt: w.prompt,
    imageUrls,
    ...(size === undefined ? {} : { size }),
    ...(w.n === undefined ? {} : { n: w.n }),
    ...(w.response_format === undefined ? {} : { responseFormat: w.response_format }),
    ...(w.quality === undefined ? {} : { quality: w.quality }),
    ...(w.style === undefined ? {} : { style: w.style }),
    ...(w.user === undefined ? {} : { user: w.user }),
    ...asyncFields(w),
  };
}
