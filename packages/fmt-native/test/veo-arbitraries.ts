import { base64, fc, imageMediaType, nonEmptyText, text } from "@interlingua/core-types/testing";
import { geminiImageAspectRatios, geminiImageSizes } from "../src/veo/gemini-image-api.js";
import type { GeminiImageRequest } from "../src/veo/render-gemini-image-request.js";
import {
  VEO_MAX_REFERENCE_IMAGES,
  VEO_MAX_SAMPLES,
  veoAspectRatios,
  veoPersonGenerations,
  veoResizeModes,
  veoResolutions,
} from "../src/veo/veo-api.js";
import type { InlineImage, VeoRequest } from "../src/veo/veo-request.js";

const nonEmptyBase64 = base64.filter((s) => s.length > 0);

export const inlineImage: fc.Arbitrary<InlineImage> = fc.record({
  mimeType: imageMediaType,
  data: nonEmptyBase64,
});

const uri = fc
  .stringMatching(/^[A-Za-z0-9_-]{1,20}$/)
  .map((id) => `https://generativelanguage.googleapis.com/v1beta/files/${id}:download?alt=media`);

/** Any neutral request the Veo wire expresses (optional keys omitted, never undefined). */
export const veoRequest: fc.Arbitrary<VeoRequest> = fc.record(
  {
    prompt: nonEmptyText(80),
    negativePrompt: text(40),
    image: inlineImage,
    lastFrame: inlineImage,
    referenceImages: fc.array(inlineImage, { minLength: 1, maxLength: VEO_MAX_REFERENCE_IMAGES }),
    video: fc.record({ uri }),
    aspectRatio: fc.constantFrom(...veoAspectRatios),
    durationSeconds: fc.constantFrom(4, 6, 8),
    resolution: fc.constantFrom(...veoResolutions),
    sampleCount: fc.integer({ min: 1, max: VEO_MAX_SAMPLES }),
    seed: fc.integer({ min: 0, max: 4_294_967_295 }),
    personGeneration: fc.constantFrom(...veoPersonGenerations),
    enhancePrompt: fc.boolean(),
    generateAudio: fc.boolean(),
    resizeMode: fc.constantFrom(...veoResizeModes),
  },
  { requiredKeys: ["prompt"] },
);

export const geminiImageRequest: fc.Arbitrary<GeminiImageRequest> = fc.record(
  {
    prompt: nonEmptyText(80),
    images: fc.array(inlineImage, { minLength: 1, maxLength: 4 }),
    aspectRatio: fc.constantFrom(...geminiImageAspectRatios),
    imageSize: fc.constantFrom(...geminiImageSizes),
  },
  { requiredKeys: ["prompt"] },
);

export { uri as veoVideoUri };
