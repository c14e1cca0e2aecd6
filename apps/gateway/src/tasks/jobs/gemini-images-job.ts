import { invalidRequest } from "@interlingua/errors";
import {
  geminiImageShape,
  type InlineImage,
  parseGeminiImageResponse,
  renderGeminiImageRequest,
} from "@interlingua/fmt-native/veo";
import { PROTOCOLS } from "../../upstream/protocols.ts";
import { fetchSourceImage } from "../fetch-source-image.ts";
import { callJson } from "../upstream-call.ts";
import { type ImageInput, sizeText } from "./image-input.ts";
import { failureStep, type Job, type JobContext, type MediaBytes, type Step } from "./job.ts";

// Gemini image output: one synchronous `:generateContent` with TEXT and IMAGE modalities; the
// input images (upload URLs) go inline. A prompt block or a SAFETY-kind finish is a content
// policy failure; a reply without an image is an unusable result.

/** The API reference: uploads are at most 20 MB, and image inputs come from the upload endpoint. */
const MAX_INPUT_BYTES = 20 * 1024 * 1024;

export const geminiImagesJob: Job = {
  output: "image",

  refuseImage(request) {
    const size = sizeText(request.size);
    if (size !== undefined && geminiImageShape(size) === undefined) {
      return invalidRequest(`size ${size} is not available for ${request.model}`, "size");
    }
    return undefined;
  },

  async start(context) {
    const input = context.record.input as unknown as ImageInput;
    const images: InlineImage[] = [];
    for (const url of input.imageUrls ?? []) {
      const fetched = await fetchSourceImage(context.services, url, MAX_INPUT_BYTES);
      if (!fetched.ok)
        return { kind: "failed", code: "source_fetch_failed", message: fetched.message };
      images.push(fetched.image);
    }
    const text = sizeText(input.size);
    const shape = text === undefined ? undefined : geminiImageShape(text);
    // One image a call: `n` images are `n` calls (the image models answer one candidate).
    const media: MediaBytes[] = [];
    for (let i = 0; i < (input.n ?? 1); i++) {
      const step = await generateOnce(context, input.prompt, images, shape);
      if (step.kind !== "results") return step;
      media.push(...step.media);
    }
    return { kind: "results", media } satisfies Step;
  },

  poll(context) {
    return this.start(context);
  },
  collect(context) {
    return this.start(context);
  },
};

async function generateOnce(
  context: JobContext,
  prompt: string,
  images: InlineImage[],
  shape: ReturnType<typeof geminiImageShape>,
): Promise<Step> {
  {
    const reply = await callJson(context.services.agent, context.candidate.channel, {
      method: "POST",
      // The generateContent path of the channel's protocol (the one that declares this job).
      path: PROTOCOLS[context.candidate.channel.protocol].path(
        context.candidate.upstreamModel,
        false,
      ),
      body: renderGeminiImageRequest({
        prompt,
        ...(images.length === 0 ? {} : { images }),
        ...(shape === undefined ? {} : shape),
      }),
    });
    if (!reply.ok) return failureStep(reply);
    let result: ReturnType<typeof parseGeminiImageResponse>;
    try {
      result = parseGeminiImageResponse(reply.value);
    } catch (error) {
      return { kind: "failed", code: "invalid_upstream_result", message: (error as Error).message };
    }
    if (result.images.length === 0) {
      const block = result.blocked;
      if (block?.policy === true) {
        return {
          kind: "failed",
          code: "content_policy_violation",
          message: block.message ?? block.reason,
        };
      }
      return {
        kind: "failed",
        code: block === undefined ? "invalid_upstream_result" : "generation_failed",
        message: block?.message ?? block?.reason ?? "no image in the reply",
      };
    }
    return {
      kind: "results",
      media: result.images.map((image) => ({
        bytes: Buffer.from(image.data, "base64"),
        contentType: image.mimeType,
      })),
    } satisfies Step;
  }
}
