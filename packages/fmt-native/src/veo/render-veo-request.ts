import type {
  VeoImageWire,
  VeoInstanceWire,
  VeoParametersWire,
  VeoPredictRequestWire,
} from "./veo-api.js";
import type { InlineImage, VeoRequest } from "./veo-request.js";

/** Rendered as the SDK sends images to the Gemini API (its `inlineData` form is refused there). */
const renderImage = (image: InlineImage): VeoImageWire => ({
  bytesBase64Encoded: image.data,
  mimeType: image.mimeType,
});

/** Neutral names equal the wire's; this list is the order they are written in. */
const parameterKeys = [
  "aspectRatio",
  "durationSeconds",
  "resolution",
  "sampleCount",
  "seed",
  "personGeneration",
  "negativePrompt",
  "enhancePrompt",
  "generateAudio",
  "resizeMode",
] as const satisfies readonly (keyof VeoParametersWire & keyof VeoRequest)[];

/** The `:predictLongRunning` body: one instance, and `parameters` when any is set. */
export function renderVeoRequest(request: VeoRequest): VeoPredictRequestWire {
  const instance: VeoInstanceWire = { prompt: request.prompt };
  if (request.image !== undefined) instance.image = renderImage(request.image);
  if (request.lastFrame !== undefined) instance.lastFrame = renderImage(request.lastFrame);
  if (request.referenceImages !== undefined && request.referenceImages.length > 0) {
    instance.referenceImages = request.referenceImages.map((image) => ({
      image: renderImage(image),
      referenceType: "asset",
    }));
  }
  if (request.video !== undefined) instance.video = { uri: request.video.uri };

  const parameters: Record<string, unknown> = {};
  for (const key of parameterKeys) {
    if (request[key] !== undefined) parameters[key] = request[key];
  }
  const body: VeoPredictRequestWire = { instances: [instance] };
  if (Object.keys(parameters).length > 0) body.parameters = parameters as VeoParametersWire;
  return body;
}

/** The inverse, for tests and the simulator: a validated body -> the neutral request. */
export function veoRequestFromWire(body: VeoPredictRequestWire): VeoRequest {
  const [instance] = body.instances;
  const request: VeoRequest = { prompt: instance.prompt };
  if (instance.image !== undefined) request.image = inlineImage(instance.image);
  if (instance.lastFrame !== undefined) request.lastFrame = inlineImage(instance.lastFrame);
  if (instance.referenceImages !== undefined) {
    request.referenceImages = instance.referenceImages.map((r) => inlineImage(r.image));
  }
  if (instance.video !== undefined) request.video = { uri: instance.video.uri };
  for (const key of parameterKeys) {
    const value = body.parameters?.[key];
    if (value !== undefined) Object.assign(request, { [key]: value });
  }
  return request;
}

/** Either wire spelling of an image -> `{mimeType, data}`. */
export const inlineImage = (image: VeoImageWire): InlineImage =>
  "inlineData" in image
    ? { mimeType: image.inlineData.mimeType, data: image.inlineData.data }
    : { mimeType: image.mimeType, data: image.bytesBase64Encoded };
