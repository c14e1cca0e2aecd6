import type { ImageRequest } from "./image-request.js";
import type { RemixRequest } from "./remix-request.js";
import type { VideoRequest } from "./video-request.js";

/** docs/api-reference.md "Limits": a remix extends an 8 s video to 15 s, so it generates 7 s. */
export const REMIX_GENERATED_SECONDS = 7;

const isVideo = (r: VideoRequest | RemixRequest | ImageRequest): r is VideoRequest =>
  "variant" in r;
const isRemix = (r: VideoRequest | RemixRequest | ImageRequest): r is RemixRequest => "raw" in r;

/**
 * Seconds of video a request bills: the standard variant is always 8; the official variant makes
 * `sample_count` videos of `duration` each; a remix generates the 7 extra seconds.
 */
export function generatedSeconds(req: VideoRequest | RemixRequest): number {
  if (!isVideo(req)) return REMIX_GENERATED_SECONDS;
  return req.variant === "standard" ? req.duration : req.duration * req.sampleCount;
}

/** Base seconds per model family (canonical id); our own estimate, the API reference shows none. */
const BASE_SECONDS: Readonly<Record<string, number>> = {
  "vidV3.1-lite": 45,
  "vidV3.1-fast": 60,
  "vidV3.1-quality": 120,
  "vidV3.1-fast-official": 60,
  "vidV3.1-quality-official": 120,
};
const RESOLUTION_FACTOR: Readonly<Record<string, number>> = {
  "720p": 1,
  "1080p": 1.5,
  "4k": 2.5,
  "4K": 2.5,
};
export const IMAGE_ESTIMATED_SECONDS = 30;
const DEFAULT_VIDEO_SECONDS = 90;

/**
 * `estimated_time` of a new task, in whole seconds: the model's base time scaled by resolution
 * and by how many seconds are generated against the standard 8.
 */
export function estimatedTimeSeconds(req: VideoRequest | RemixRequest | ImageRequest): number {
  if (!isVideo(req) && !isRemix(req)) return IMAGE_ESTIMATED_SECONDS;
  const base = BASE_SECONDS[req.canonicalModel] ?? DEFAULT_VIDEO_SECONDS;
  const factor = RESOLUTION_FACTOR[req.resolution] ?? 1;
  return Math.ceil(base * factor * Math.max(1, generatedSeconds(req) / 8));
}
