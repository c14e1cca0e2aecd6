import { invalidRequest } from "@interlingua/errors";
import {
  dallEQualities,
  OPENAI_IMAGES_PATH,
  type OpenAIImageQuality,
  openAIImageSize,
  parseOpenAIImageResponse,
  renderOpenAIImageRequest,
} from "@interlingua/fmt-chat/media";
import type { ImageQuality } from "@interlingua/tasks";
import { callJson, download } from "../upstream-call.ts";
import { type ImageInput, sizeText } from "./image-input.ts";
import { failureStep, type Job, type MediaBytes, type Step } from "./job.ts";

// OpenAI images: one synchronous `POST /v1/images/generations`; GPT image models answer base64,
// DALL-E style replies carry URLs, downloaded here. A moderation refusal is a 400 whose code
// says so: it fails the task as a content policy violation, not as a generation error.

const MAX_IMAGE_BYTES = 64 * 1024 * 1024;
const POLICY_CODES = new Set(["moderation_blocked", "content_policy_violation"]);

export const openaiImagesJob: Job = {
  output: "image",

  // The generations endpoint takes no input images, and has its own size table.
  refuseImage(request) {
    if (request.imageUrls.length > 0) {
      return invalidRequest(
        `model ${request.model} does not take image_urls on this endpoint`,
        "image_urls",
      );
    }
    const size = sizeText(request.size);
    if (size !== undefined && openAIImageSize(size) === undefined) {
      return invalidRequest(`size ${size} is not available for ${request.model}`, "size");
    }
    return undefined;
  },

  async start(context) {
    const input = context.record.input as unknown as ImageInput;
    const text = sizeText(input.size);
    const size = text === undefined ? undefined : openAIImageSize(text);
    const reply = await callJson(context.services.agent, context.candidate.channel, {
      method: "POST",
      path: OPENAI_IMAGES_PATH,
      body: renderOpenAIImageRequest({
        model: context.candidate.upstreamModel,
        prompt: input.prompt,
        ...(size === undefined ? {} : { size }),
        ...(input.n === undefined || input.n === 1 ? {} : { n: input.n }),
        ...(input.quality === undefined ? {} : { quality: upstreamQuality(input.quality) }),
        ...(input.user === undefined ? {} : { user: input.user }),
      }),
    });
    if (!reply.ok) {
      const policy = reply.status === 400 && isPolicyRefusal(reply.code, reply.message);
      return failureStep(reply, policy ? "content_policy_violation" : "generation_failed");
    }
    let images: ReturnType<typeof parseOpenAIImageResponse>["images"];
    try {
      images = parseOpenAIImageResponse(reply.value).images;
    } catch (error) {
      return { kind: "failed", code: "invalid_upstream_result", message: (error as Error).message };
    }
    const media: MediaBytes[] = [];
    for (const image of images) {
      if (image.b64Json !== undefined) {
        media.push({ bytes: Buffer.from(image.b64Json, "base64"), contentType: undefined });
      } else if (image.url !== undefined) {
        const got = await download(
          context.services.agent,
          image.url,
          MAX_IMAGE_BYTES,
          context.candidate.channel,
        );
        if (!got.ok) return failureStep(got, "invalid_upstream_result");
        media.push(got.value);
      }
    }
    if (media.length === 0) {
      return { kind: "failed", code: "invalid_upstream_result", message: "no image in the reply" };
    }
    // OpenAI's own usage object, as its ImagesResponse carries it (images-response.ts).
    const usage = (reply.value as { usage?: unknown }).usage;
    return usage !== null && typeof usage === "object"
      ? { kind: "results", media, usage: usage as Record<string, unknown> }
      : ({ kind: "results", media } satisfies Step);
  },

  // Synchronous upstream: a task found mid-way (its runner died) simply starts again.
  poll(context) {
    return this.start(context);
  },
  collect(context) {
    return this.start(context);
  },
};

/** DALL-E's `standard` / `hd` as the GPT image quality of the same intent. */
const upstreamQuality = (quality: ImageQuality): OpenAIImageQuality =>
  Object.hasOwn(dallEQualities, quality)
    ? dallEQualities[quality as keyof typeof dallEQualities]
    : (quality as OpenAIImageQuality);

function isPolicyRefusal(code: string | undefined, message: string): boolean {
  return (code !== undefined && POLICY_CODES.has(code)) || /safety system/i.test(message);
}
