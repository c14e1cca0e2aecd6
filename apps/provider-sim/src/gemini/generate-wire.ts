import { base64Digest } from "../core/hash.ts";
import type { JsonObject } from "../core/json.ts";
import type { PlannedChoice, PlannedUsage, ReplyPlan, StopKind } from "../core/reply-plan.ts";
import { pngForSeed } from "../media/png.ts";

export type GenerateMeta = {
  model: string;
  responseId: string;
  image: boolean;
  /** What a generated image derives from: the prompt, so the same prompt draws the same image. */
  imageSeed: string;
  /**
   * `generationConfig.responseLogprobs`: each candidate's tokens (words here) with their log
   * probabilities, and `logprobs` alternatives per step; undefined when not asked.
   */
  logprobs?: { top: number };
};

/** A word's made-up log probability: fixed by its text, never above 0. */
const wordLogprob = (word: string): number => -((word.length % 7) + 1) / 8;

/**
 * `logprobsResult` for `text` (one token per word, its trailing space included) and its mean,
 * as a candidate (or a stream chunk's candidate) carries them; nothing for empty text.
 */
export function logprobsFields(text: string, top: number, withMean: boolean): JsonObject {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  if (words.length === 0) return {};
  const chosen = words.map((token) => ({ token, logProbability: wordLogprob(token) }));
  const out: JsonObject = { logprobsResult: { chosenCandidates: chosen } };
  if (top > 0) {
    (out["logprobsResult"] as JsonObject)["topCandidates"] = chosen.map((c) => ({
      candidates: [
        c,
        ...["a", "the", "and"].slice(0, top - 1).map((token) => ({ token, logProbability: -4 })),
      ],
    }));
  }
  if (withMean) {
    out["avgLogprobs"] = chosen.reduce((n, c) => n + c.logProbability, 0) / chosen.length;
  }
  return out;
}

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
 * Image output adds its tokens to candidatesTokenCount and itemizes it in candidatesTokensDetails.
 */
export function usageMetadata(
  usage: PlannedUsage,
  candidates: number,
  thoughts: number,
  imageTokens = 0,
) {
  const output = candidates + imageTokens;
  return {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: output,
    totalTokenCount: usage.promptTokens + output + thoughts,
    ...(usage.cacheReadTokens > 0
      ? {
          cachedContentTokenCount: usage.cacheReadTokens,
          cacheTokensDetails: [{ modality: "TEXT", tokenCount: usage.cacheReadTokens }],
        }
      : {}),
    promptTokensDetails: [{ modality: "TEXT", tokenCount: usage.promptTokens }],
    ...(imageTokens > 0
      ? {
          candidatesTokensDetails: [
            ...(candidates > 0 ? [{ modality: "TEXT", tokenCount: candidates }] : []),
            { modality: "IMAGE", tokenCount: imageTokens },
          ],
        }
      : {}),
    ...(thoughts > 0 ? { thoughtsTokenCount: thoughts } : {}),
  };
}

export function imagePart(meta: GenerateMeta, index: number): JsonObject {
  return {
    inlineData: {
      mimeType: "image/png",
      data: pngForSeed(`gemini-image:${meta.imageSeed}:${index}`).toString("base64"),
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
