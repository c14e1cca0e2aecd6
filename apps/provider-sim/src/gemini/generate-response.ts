import type { JsonObject } from "../core/json.ts";
import type { ReplyPlan } from "../core/reply-plan.ts";
import {
  FINISH_REASON,
  functionCallParts,
  type GenerateMeta,
  imagePart,
  thoughtSignature,
  usageMetadata,
} from "./generate-wire.ts";

export function generateContentResponse(meta: GenerateMeta, plan: ReplyPlan) {
  const signature = thoughtSignature(plan);
  return {
    candidates: plan.choices.map((choice, index) => {
      const parts: JsonObject[] = [];
      if (plan.thinking?.visible) parts.push({ text: plan.thinking.text, thought: true });
      if (choice.toolCalls.length > 0) parts.push(...functionCallParts(choice, signature));
      else parts.push({ text: choice.text, ...(signature ? { thoughtSignature: signature } : {}) });
      if (meta.image) parts.push(imagePart(meta, index));
      return { content: { parts, role: "model" }, finishReason: FINISH_REASON[choice.stop], index };
    }),
    usageMetadata: usageMetadata(plan.usage, plan.usage.outputTokens, plan.usage.thinkingTokens),
    modelVersion: meta.model,
    responseId: meta.responseId,
  };
}
