import type { JsonObject } from "../core/json.ts";
import type { ReplyPlan } from "../core/reply-plan.ts";
import {
  FINISH_REASON,
  functionCallParts,
  type GenerateMeta,
  imagePart,
  logprobsFields,
  thoughtSignature,
  usageMetadata,
} from "./generate-wire.ts";
import { IMAGE_OUTPUT_TOKENS } from "./image-output.ts";

export function generateContentResponse(meta: GenerateMeta, plan: ReplyPlan) {
  const signature = thoughtSignature(plan);
  const imageTokens = meta.image ? IMAGE_OUTPUT_TOKENS * plan.choices.length : 0;
  return {
    candidates: plan.choices.map((choice, index) => {
      const parts: JsonObject[] = [];
      if (plan.thinking?.visible) parts.push({ text: plan.thinking.text, thought: true });
      if (choice.toolCalls.length > 0) parts.push(...functionCallParts(choice, signature));
      else if (choice.text !== "" || !meta.image) {
        parts.push({ text: choice.text, ...(signature ? { thoughtSignature: signature } : {}) });
      }
      // An image-only reply carries the signature on its image, as Gemini 3 image models do.
      const signed = choice.toolCalls.length === 0 && choice.text === "" && signature;
      if (meta.image) {
        parts.push({
          ...imagePart(meta, index),
          ...(signed ? { thoughtSignature: signature } : {}),
        });
      }
      return {
        content: { parts, role: "model" },
        finishReason: FINISH_REASON[choice.stop],
        index,
        ...(meta.logprobs ? logprobsFields(choice.text, meta.logprobs.top, true) : {}),
      };
    }),
    usageMetadata: usageMetadata(
      plan.usage,
      plan.usage.outputTokens,
      plan.usage.thinkingTokens,
      imageTokens,
    ),
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}
