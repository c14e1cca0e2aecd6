import { type GeminiImageResponseWire, geminiImageResponseSchema } from "./gemini-image-api.js";
import { capText, upstreamInvalid } from "./upstream-invalid.js";
import type { InlineImage } from "./veo-request.js";

export interface GeminiImageBlock {
  /** The upstream's reason as sent, e.g. `PROHIBITED_CONTENT`, `IMAGE_SAFETY`, `NO_IMAGE`. */
  reason: string;
  /** `prompt`: promptFeedback.blockReason; `output`: a candidate's finishReason. */
  stage: "prompt" | "output";
  /** True for safety and policy blocks (content_policy_violation); false for NO_IMAGE and kin. */
  policy: boolean;
  message?: string;
}

export interface GeminiImageResult {
  images: InlineImage[];
  /** The model's text parts, joined (it often says a line about the image). */
  text: string;
  finishReason?: string;
  blocked?: GeminiImageBlock;
  usage?: { inputTokens: number; outputTokens: number; totalTokens: number };
  modelVersion?: string;
  responseId?: string;
}

export const GEMINI_IMAGE_LIMITS = {
  /** Images kept from one reply. */
  images: 16,
  /** Characters of text kept. */
  text: 8000,
  reason: 64,
  message: 2000,
} as const;

/**
 * Candidate finish reasons that mean "no image, on purpose", and whether it is a policy block.
 * STOP, MAX_TOKENS and the rest are not blocks: an empty result then is the caller's to judge.
 */
export const geminiImageBlockingFinishReasons: Readonly<Record<string, boolean>> = {
  SAFETY: true,
  PROHIBITED_CONTENT: true,
  BLOCKLIST: true,
  SPII: true,
  RECITATION: true,
  IMAGE_SAFETY: true,
  IMAGE_PROHIBITED_CONTENT: true,
  IMAGE_RECITATION: true,
  NO_IMAGE: false,
  IMAGE_OTHER: false,
};

function blockOf(reply: GeminiImageResponseWire): GeminiImageBlock | undefined {
  const prompt = reply.promptFeedback?.blockReason;
  if (prompt !== undefined && prompt !== "" && prompt !== "BLOCK_REASON_UNSPECIFIED") {
    const block: GeminiImageBlock = {
      reason: capText(prompt, GEMINI_IMAGE_LIMITS.reason),
      stage: "prompt",
      policy: true,
    };
    const message = reply.promptFeedback?.blockReasonMessage;
    if (message !== undefined) block.message = capText(message, GEMINI_IMAGE_LIMITS.message);
    return block;
  }
  for (const candidate of reply.candidates ?? []) {
    const reason = candidate.finishReason;
    if (reason === undefined || !Object.hasOwn(geminiImageBlockingFinishReasons, reason)) continue;
    const block: GeminiImageBlock = {
      reason,
      stage: "output",
      policy: geminiImageBlockingFinishReasons[reason] === true,
    };
    if (candidate.finishMessage !== undefined) {
      block.message = capText(candidate.finishMessage, GEMINI_IMAGE_LIMITS.message);
    }
    return block;
  }
  return undefined;
}

/**
 * A `:generateContent` reply of an image model -> its images (thought images skipped), text,
 * block and usage. A reply that fails its schema is a 502. Output tokens count thoughts too, as
 * the chat codec does.
 */
export function parseGeminiImageResponse(json: unknown): GeminiImageResult {
  const parsed = geminiImageResponseSchema.safeParse(json);
  if (!parsed.success) throw upstreamInvalid(parsed.error, "image reply");
  const reply = parsed.data;
  const images: InlineImage[] = [];
  let text = "";
  for (const candidate of reply.candidates ?? []) {
    for (const part of candidate.content?.parts ?? []) {
      if (part.thought === true) continue;
      const data = part.inlineData;
      if (data !== undefined && data.data !== "" && images.length < GEMINI_IMAGE_LIMITS.images) {
        images.push({ mimeType: data.mimeType, data: data.data });
      }
      if (part.text !== undefined && text.length < GEMINI_IMAGE_LIMITS.text) {
        text = capText(text + part.text, GEMINI_IMAGE_LIMITS.text);
      }
    }
  }
  const result: GeminiImageResult = { images, text };
  const finishReason = reply.candidates?.[0]?.finishReason;
  if (finishReason !== undefined)
    result.finishReason = capText(finishReason, GEMINI_IMAGE_LIMITS.reason);
  const blocked = blockOf(reply);
  if (blocked !== undefined) result.blocked = blocked;
  const usage = reply.usageMetadata;
  if (usage !== undefined) {
    const inputTokens = usage.promptTokenCount ?? 0;
    const outputTokens = (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0);
    result.usage = {
      inputTokens,
      outputTokens,
      totalTokens: usage.totalTokenCount ?? inputTokens + outputTokens,
    };
  }
  if (reply.modelVersion !== undefined) result.modelVersion = capText(reply.modelVersion, 200);
  if (reply.responseId !== undefined) result.responseId = capText(reply.responseId, 200);
  return result;
}
