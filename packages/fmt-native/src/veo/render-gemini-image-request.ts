import type {
  GeminiImageAspectRatio,
  GeminiImageRequestWire,
  GeminiImageSize,
} from "./gemini-image-api.js";
import type { InlineImage } from "./veo-request.js";

/** The neutral image request: a prompt, optional input images, the wanted shape. */
export interface GeminiImageRequest {
  prompt: string;
  /** Images to edit or draw from, in order. */
  images?: readonly InlineImage[];
  aspectRatio?: GeminiImageAspectRatio;
  imageSize?: GeminiImageSize;
}

/** The `:generateContent` body: one user turn (the text, then the images), TEXT and IMAGE out. */
export function renderGeminiImageRequest(request: GeminiImageRequest): GeminiImageRequestWire {
  const parts: GeminiImageRequestWire["contents"][number]["parts"] = [{ text: request.prompt }];
  for (const image of request.images ?? []) {
    parts.push({ inlineData: { mimeType: image.mimeType, data: image.data } });
  }
  const body: GeminiImageRequestWire = {
    contents: [{ role: "user", parts }],
    generationConfig: { responseModalities: ["TEXT", "IMAGE"] },
  };
  const imageConfig: NonNullable<GeminiImageRequestWire["generationConfig"]["imageConfig"]> = {};
  if (request.aspectRatio !== undefined) imageConfig.aspectRatio = request.aspectRatio;
  if (request.imageSize !== undefined) imageConfig.imageSize = request.imageSize;
  if (Object.keys(imageConfig).length > 0) body.generationConfig.imageConfig = imageConfig;
  return body;
}

/** The inverse, for tests and the simulator: a validated body -> the neutral request. */
export function geminiImageRequestFromWire(body: GeminiImageRequestWire): GeminiImageRequest {
  const [content] = body.contents;
  const texts: string[] = [];
  const images: InlineImage[] = [];
  for (const part of content.parts) {
    if ("text" in part) texts.push(part.text);
    else images.push({ mimeType: part.inlineData.mimeType, data: part.inlineData.data });
  }
  const request: GeminiImageRequest = { prompt: texts.join("\n") };
  if (images.length > 0) request.images = images;
  const config = body.generationConfig.imageConfig;
  if (config?.aspectRatio !== undefined) request.aspectRatio = config.aspectRatio;
  if (config?.imageSize !== undefined) request.imageSize = config.imageSize;
  return request;
}
