import {
  type AssistantPart,
  type IndexedOutput,
  type PromptFeedback,
  type RenderOptions,
  type Response,
  type ResponseBase,
  type SafetyRating,
  setAsideMalformedUsage,
  type TextPart,
  withOutputs,
} from "@interlingua/core-types";
import { badGateway, GatewayError, malformedReplyFromZod } from "@interlingua/errors";
import { blockedOutput } from "./blocked-prompt.js";
import { restoreCarriedThinking } from "./carried-thinking.js";
import { parseNativeFinishReason } from "./map-native-finish-reason.js";
import { parseNativeUsage } from "./map-native-usage.js";
import {
  type NativePromptFeedback,
  type NativeSafetyRating,
  nativeResponseSchema,
  nativeUsageMetadataSchema,
} from "./native-api.js";
import { buildExtras, type NativeBookkeeping } from "./native-extras.js";
import { applyGrounding } from "./native-grounding.js";
import { parseNativeLogprobs } from "./native-logprobs.js";
import { hasDataField, type PartParseContext, parseAssistantPart } from "./native-parts.js";
import { generatedCallId } from "./native-tool-call-ids.js";

const knownFields = new Set([
  "createTime",
  "candidates",
  "promptFeedback",
  "usageMetadata",
  "modelVersion",
  "responseId",
]);

export const parseSafetyRating = (rating: NativeSafetyRating): SafetyRating =>
  rating.blocked === undefined
    ? { category: rating.category, probability: rating.probability }
    : { category: rating.category, probability: rating.probability, blocked: rating.blocked };

export function parsePromptFeedback(feedback: NativePromptFeedback): PromptFeedback {
  const out: PromptFeedback = {};
  if (feedback.blockReason !== undefined) out.blockReason = feedback.blockReason;
  if (feedback.safetyRatings !== undefined) {
    out.safetyRatings = feedback.safetyRatings.map(parseSafetyRating);
  }
  return out;
}

/**
 * Unix seconds of Vertex's `createTime` (the only creation time this format has); 0 without it.
 */
export function createdFromCreateTime(createTime: unknown): number {
  if (typeof createTime !== "string") return 0;
  const ms = Date.parse(createTime);
  return Number.isFinite(ms) && ms >= 0 ? Math.floor(ms / 1000) : 0;
}

/** How `created` is written as createTime (omitted when 0: no creation time is known). */
export const createTimeOf = (created: number): string | undefined =>
  created > 0 ? new Date(created * 1000).toISOString() : undefined;

/**
 * A generateContent response -> canonical response. responseId and modelVersion are the id and
 * model ("" when absent); created comes from createTime when the upstream sends one. Function
 * calls without an id get `gemini_call_<responseId>_<candidate>_<n>`. Unknown top-level fields are
 * kept in extras.native; finishMessage is the finish reason's explanation; unknown candidate
 * fields are not kept, except groundingMetadata's web sources, which become text citations.
 * The candidate at index 0 is the primary output, others alternatives; no candidates is
 * `noOutput`, except for a blocked prompt (blockReason, no candidates): one empty primary output
 * finished content-filter (blocked-prompt.ts). The primary candidate's safetyRatings sit in
 * `response.providerExtras.gemini` beside promptFeedback.
 * Code-execution parts become fenced text (reported, `native-code-execution.ts`); a part of a
 * kind this codec does not know is dropped and reported, never a failed reply.
 */
export function parseNativeResponse(wire: unknown, options?: RenderOptions): Response {
  const parsed = nativeResponseSchema.safeParse(
    setAsideMalformedUsage(wire, "usageMetadata", nativeUsageMetadataSchema, options?.onWarning),
  );
  if (!parsed.success) throw malformedReplyFromZod(parsed.error, "response");
  const body = parsed.data;
  const id = body.responseId ?? "";
  const book: NativeBookkeeping = {};
  const outputs: IndexedOutput[] = (body.candidates ?? []).map((candidate, c) => {
    const index = candidate.index ?? c;
    let calls = 0;
    const ctx: PartParseContext = { book, nextCallId: () => generatedCallId(id, index, calls++) };
    const read: AssistantPart[] = [];
    const textParts = new Map<number, TextPart>();
    (candidate.content?.parts ?? []).forEach((part, p) => {
      const path = `candidates[${c}].content.parts[${p}]`;
      if (!hasDataField(part)) {
        options?.onWarning?.({
          type: "dropped",
          feature: path,
          message: "a part of a kind this gateway does not know was dropped",
        });
        return;
      }
      if (part.executableCode !== undefined || part.codeExecutionResult !== undefined) {
        options?.onWarning?.({
          type: "mapped",
          feature: path,
          message: "code execution (executableCode / codeExecutionResult) is carried as text",
        });
      }
      const out = parseReplyPart(part, ["candidates", c, "content", "parts", p], ctx);
      if (out.type === "text") textParts.set(p, out);
      read.push(out);
    });
    if (candidate.groundingMetadata !== undefined) {
      applyGrounding(
        candidate.groundingMetadata,
        textParts,
        `candidates[${c}]`,
        options?.onWarning,
      );
    }
    if (candidate.citationMetadata !== undefined) {
      options?.onWarning?.({
        type: "dropped",
        feature: `candidates[${c}].citationMetadata`,
        message: "recitation sources (citationMetadata) are not carried",
      });
    }
    // Another provider's thinking carried on a visible part's signature is a thinking part again.
    const parts: AssistantPart[] = restoreCarriedThinking(read);
    const choice: IndexedOutput = {
      index,
      message: { role: "assistant", parts },
      finishReason: parseNativeFinishReason(
        candidate.finishReason,
        hasCall(parts),
        candidate.finishMessage,
      ),
    };
    const logprobs = parseNativeLogprobs(candidate.logprobsResult, candidate.avgLogprobs);
    if (logprobs !== undefined) choice.logprobs = logprobs;
    if (candidate.safetyRatings !== undefined) {
      choice.providerExtras = {
        gemini: { safetyRatings: candidate.safetyRatings.map(parseSafetyRating) },
      };
    }
    return choice;
  });
  const unknown: Record<string, unknown> = {};
  for (const key in body) if (!knownFields.has(key)) unknown[key] = body[key];
  const created = createdFromCreateTime(body.createTime);
  // The sent createTime is kept only when it says more than `created` does (sub-second digits).
  if (body.createTime !== undefined && body.createTime !== createTimeOf(created)) {
    book.createTime = body.createTime;
  }
  const response: ResponseBase = {
    id,
    model: body.modelVersion ?? "",
    created,
    usage: parseNativeUsage(body.usageMetadata),
  };
  if (body.promptFeedback !== undefined) {
    const promptFeedback = parsePromptFeedback(body.promptFeedback);
    response.providerExtras = { gemini: { promptFeedback } };
    const blocked = promptFeedback.blockReason;
    if (blocked !== undefined && outputs.length === 0) outputs.push(blockedOutput(blocked));
  }
  const extras = buildExtras(unknown, book);
  if (extras !== undefined) response.extras = extras;
  return withOutputs(response, outputs, options?.onWarning, (c) => `candidates[${c}]`);
}

const hasCall = (parts: AssistantPart[]) => parts.some((p) => p.type === "tool-call");

/**
 * A reply part the part reader refuses (two data fields, a functionResponse from the model) is the
 * upstream's fault: a 502 malformed reply, never the 400 the same check gives a client's request.
 */
function parseReplyPart(
  part: Parameters<typeof parseAssistantPart>[0],
  path: Parameters<typeof parseAssistantPart>[1],
  ctx: PartParseContext,
): AssistantPart {
  try {
    return parseAssistantPart(part, path, ctx);
  } catch (error) {
    if (error instanceof GatewayError && error.status === 400) {
      throw badGateway(`Upstream sent an invalid response: ${error.message}`);
    }
    throw error;
  }
}
