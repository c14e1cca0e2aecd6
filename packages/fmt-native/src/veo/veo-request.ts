import type {
  VeoAspectRatio,
  VeoPersonGeneration,
  VeoResizeMode,
  VeoResolution,
} from "./veo-api.js";

/** An image sent inline: its MIME type and its bytes in base64. */
export interface InlineImage {
  mimeType: string;
  data: string;
}

/**
 * The neutral Veo request the gateway builds from the API reference's video bodies. Values are already the
 * upstream's (see `toVeoResolution` / `toVeoPersonGeneration` for the API reference's spellings).
 */
export interface VeoRequest {
  prompt: string;
  negativePrompt?: string;
  /** The first frame (image-to-video). */
  image?: InlineImage;
  /** The last frame; only together with `image`. */
  lastFrame?: InlineImage;
  /** Asset reference images (at most three); rendered with referenceType "asset". */
  referenceImages?: readonly InlineImage[];
  /** A generated video to extend, by its upstream `uri`. */
  video?: { uri: string };
  aspectRatio?: VeoAspectRatio;
  durationSeconds?: number;
  resolution?: VeoResolution;
  sampleCount?: number;
  seed?: number;
  personGeneration?: VeoPersonGeneration;
  enhancePrompt?: boolean;
  generateAudio?: boolean;
  resizeMode?: VeoResizeMode;
}
