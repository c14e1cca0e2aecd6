import {
  outputsOf,
  type PromptFeedback,
  type RenderOptions,
  type Response,
  type SafetyRating,
} from "@interlingua/core-types";
import { isBlockedPrompt } from "./blocked-prompt.js";
import { renderNativeFinishMessage, renderNativeFinishReason } from "./map-native-finish-reason.js";
import { renderNativeUsage } from "./map-native-usage.js";
import type {
  NativeCandidate,
  NativePart,
  NativePromptFeedback,
  NativeResponseWire,
  NativeSafetyRating,
} from "./native-api.js";
import { readBookkeeping, readUnknownFields } from "./native-extras.js";
import { type CitedText, renderGrounding } from "./native-grounding.js";
import { renderNativeLogprobs } from "./native-logprobs.js";
import { type PartRenderContext, renderAssistantPart } from "./native-parts.js";
import { createdFromCreateTime, createTimeOf } from "./parse-native-response.js";

export const renderSafetyRating = (rating: SafetyRating): NativeSafetyRating => ({ ...rating });

export function renderPromptFeedback(feedback: PromptFeedback): NativePromptFeedback {
  const out: NativePromptFeedback = {};
  if (feedback.blockReason !== undefined) out.blockReason = feedback.blockReason;
  if (feedback.safetyRatings !== undefined) {
    out.safetyRatings = feedback.safetyRatings.map(renderSafetyRating);
  }
  return out;
}

/**
 * createTime as the upstream sent it when it still says `created`; otherwise `created` written as
 * an ISO timestamp (omitted when 0: the response never had a creation time).
 */
export function renderCreateTime(created: number, kept: string | undefined): string | undefined {
  if (kept !== undefined && createdFromCreateTime(kept) === created) return kept;
  return createTimeOf(created);
}

/**
 * Canonical response -> the generate-content result docs/api-reference.md shows: candidates with content,
 * finishReason, index and safetyRatings; promptFeedback; usageMetadata; plus responseId and
 * modelVersion (the id and model) and createTime (created).
 */
export function renderNativeResponse(
  response: Response,
  options?: RenderOptions,
): NativeResponseWire {
  const book = readBookkeeping(response.extras);
  const ctx: PartRenderContext = { book, options };
  const body: NativeResponseWire = { ...readUnknownFields(response.extras) };
  const promptFeedback = response.providerExtras?.gemini?.promptFeedback;
  const outputs = outputsOf(response);
  if (outputs.length > 0 && !isBlockedPrompt(outputs, promptFeedback)) {
    body.candidates = outputs.map((choice, c): NativeCandidate => {
      const feature = `choices[${c}]`;
      const parts: NativePart[] = [];
      const cited: CitedText[] = [];
      choice.message.parts.forEach((part, p) => {
        // A text part's citations become the candidate's groundingMetadata, not part of the part.
        let plain = part;
        if (part.type === "text" && part.citations !== undefined) {
          const { citations, ...rest } = part;
          cited.push({ partIndex: parts.length, text: part.text, citations });
          plain = rest;
        }
        const out = renderAssistantPart(plain, `${feature}.message.parts[${p}]`, ctx);
        if (out !== undefined) parts.push(out);
      });
      if (choice.stopSequence !== undefined) {
        options?.onWarning?.({
          type: "dropped",
          feature: `${feature}.stopSequence`,
          message: "candidates do not name the stop sequence that ended them",
        });
      }
      const candidate: NativeCandidate = {
        content: { role: "model", parts },
        finishReason: renderNativeFinishReason(choice.finishReason),
        ...renderNativeFinishMessage(choice.finishReason),
        index: choice.index,
      };
      const safetyRatings = choice.providerExtras?.gemini?.safetyRatings;
      if (safetyRatings !== undefined)
        candidate.safetyRatings = safetyRatings.map(renderSafetyRating);
      const grounding = renderGrounding(cited, feature, options?.onWarning);
      if (grounding !== undefined) candidate.groundingMetadata = grounding;
      if (choice.logprobs !== undefined) {
        Object.assign(
          candidate,
          renderNativeLogprobs(choice.logprobs, `${feature}.logprobs`, options?.onWarning),
        );
      }
      return candidate;
    });
  }
  if (promptFeedback !== undefined) body.promptFeedback = renderPromptFeedback(promptFeedback);
  body.usageMetadata = renderNativeUsage(response.usage, options);
  if (response.model !== "") body.modelVersion = response.model;
  if (response.id !== "") body.responseId = response.id;
  const createTime = renderCreateTime(response.created, book.createTime);
  if (createTime !== undefined) body.createTime = createTime;
  return body;
}
