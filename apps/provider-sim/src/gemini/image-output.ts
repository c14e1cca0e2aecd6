import { asArray, asObject, field, type JsonObject } from "../core/json.ts";
import type { ReplyPlan } from "../core/reply-plan.ts";
import { usageMetadata } from "./generate-wire.ts";

// Gemini image output: which modalities a generateContent reply carries, and the blocked replies
// `[[safety]]` asks for (a prompt block in promptFeedback, or a candidate stopped for safety).

/** Output tokens per generated image (what gemini-2.5-flash-image reports for a 1024px image). */
export const IMAGE_OUTPUT_TOKENS = 1290;

/** Prompt-level block reasons `[[safety:REASON]]` may name; `[[safety:prompt]]` is SAFETY. */
const BLOCK_REASONS = new Set([
  "SAFETY",
  "OTHER",
  "BLOCKLIST",
  "PROHIBITED_CONTENT",
  "IMAGE_SAFETY",
]);

export type Modalities = { text: boolean; image: boolean };

/**
 * Image models (any id containing "image") answer TEXT and IMAGE unless responseModalities says
 * otherwise; other models answer text, and asking them for IMAGE is a 400 as on the real API.
 */
export function outputModalities(model: string, body: JsonObject): Modalities | string {
  const generation = asObject(field(body, "generationConfig", "generation_config")) ?? {};
  const asked = asArray(field(generation, "responseModalities", "response_modalities")).map(String);
  const imageModel = model.includes("image");
  if (asked.length === 0) return { text: true, image: imageModel };
  const image = asked.includes("IMAGE");
  if (image && !imageModel) {
    return `The requested combination of response modalities (${asked.join(", ")}) is not supported by the model models/${model}.`;
  }
  return { text: asked.includes("TEXT") || !image, image };
}

/** Without TEXT in the modalities, a reply keeps its function calls and drops its text. */
export function withoutText(plan: ReplyPlan): ReplyPlan {
  const choices = plan.choices.map((c) =>
    c.toolCalls.length > 0 ? c : { ...c, text: "", outputTokens: 0 },
  );
  const outputTokens = choices.reduce((n, c) => n + c.outputTokens, 0);
  return { ...plan, choices, usage: { ...plan.usage, outputTokens } };
}

type Meta = { model: string; responseId: string; image: boolean };

/**
 * `[[safety:prompt]]` (or an upper-case block reason): no candidates, promptFeedback.blockReason.
 * `[[safety]]`: one candidate per choice, no content, finishReason IMAGE_SAFETY (image replies) or SAFETY.
 */
export function blockedResponse(meta: Meta, plan: ReplyPlan, argument: string): JsonObject {
  const reason = argument === "prompt" ? "SAFETY" : argument;
  const common = { modelVersion: meta.model, responseId: meta.responseId };
  if (BLOCK_REASONS.has(reason)) {
    return {
      promptFeedback: { blockReason: reason },
      usageMetadata: usageMetadata(plan.usage, 0, 0),
      ...common,
    };
  }
  return {
    candidates: plan.choices.map((_, index) => ({
      finishReason: meta.image ? "IMAGE_SAFETY" : "SAFETY",
      index,
    })),
    usageMetadata: usageMetadata(plan.usage, 0, 0),
    ...common,
  };
}
