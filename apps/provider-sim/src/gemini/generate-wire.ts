import { base64Digest } from "../core/hash.ts";
import type { JsonObject } from "../core/json.ts";
import type { PlannedChoice, PlannedUsage, ReplyPlan, StopKind } from "../core/reply-plan.ts";
import { pngForSeed } from "../media/png.ts";

export type GenerateMeta = { model: string; responseId: string; image: boolean; seed: string };

/** Gemini finishes function calls with STOP too. */
export const FINISH_REASON: Record<StopKind, string> = {
  end: "STOP",
  max_tokens: "MAX_TOKENS",
  tool_use: "STOP",
};

export function thoughtSignature(plan: ReplyPlan): string | undefined {
  return plan.thinking ? base64Digest(`gemini-thought:${plan.thinking.text}`) : undefined;
}

/**
 * promptTokenCount includes cached tokens; candidatesTokenCount excludes thoughts; totalTokenCount
 * is their sum with thoughtsTokenCount. Optional counts are left out when zero, like the API.
 */
export function usageMetadata(usage: PlannedUsage, candidates: number, thoughts: number) {
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: usage.promptTokens + candidates + thoughts,
    ...(usage.cacheReadTokens > 0
      ? {
          cachedContentTokenCount: usage.cacheReadTokens,
          cacheTokensDetails: [{ modality: "TEXT", tokenCount: usage.cacheReadTokens }],
        }
      : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: usage.promptTokens }],
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

export function imagePart(meta: GenerateMeta, index: number): JsonObject {
  return {
    inlineData: {
      mimeType: "image/png",
      data: pngForSeed(`${meta.seed}:${index}`).toString("base64"),
    },
  };
}

/** Function-call parts; the first carries the thought signature, as Gemini 2.5/3 do. */
export function functionCallParts(
  choice: PlannedChoice,
  signature: string | undefined,
): JsonObject[] {
  return choice.toolCalls.map((call, i) => ({
    functionCall: { name: call.name, args: call.args },
    ...(i === 0 && signature ? { thoughtSignature: signature } : {}),
  }));
}
