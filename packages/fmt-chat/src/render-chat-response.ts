import {
  addFields,
  type Citation,
  type IndexedOutput,
  outputsOf,
  type Response,
  type StreamEncodeOptions,
  type Warning,
} from "@interlingua/core-types";
import type { ChatAnyToolCall, ChatFunctionCall, ChatToolCall } from "./chat-api.js";
import { legacyFinishReason, legacyReplyCall } from "./chat-legacy-functions.js";
import { type ChatLogprobsOut, renderChatLogprobs } from "./chat-logprobs.js";
import { type ChatReasoningDetailOut, renderReasoningDetails } from "./chat-reasoning-details.js";
import { chatServiceTier } from "./chat-service-tier.js";
import {
  droppedBlockReason,
  isFinishReasonMapped,
  renderChatFinishReason,
} from "./map-chat-finish-reason.js";
import { type RenderedChatUsage, renderChatUsage, usageFieldsChatDrops } from "./map-chat-usage.js";
import { renderChatToolCall } from "./parse-chat-tool-calls.js";

/** What `renderChatResponse` produces: the OpenAI body, every field present. */
export interface RenderedChatResponse {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: RenderedChatChoice[];
  usage: RenderedChatUsage;
  service_tier?: string;
  [extra: string]: unknown;
}

export interface RenderedChatChoice {
  index: number;
  message: RenderedChatMessage;
  /** Required by OpenAI's schema: the choice's token log probabilities, or null. */
  logprobs: ChatLogprobsOut | null;
  finish_reason: string;
}

export interface RenderedChatMessage {
  role: "assistant";
  content: string | null;
  /** Required by OpenAI's schema; a refusal's text is the content, as chat's parse reads it. */
  refusal: null;
  reasoning_content?: string;
  tool_calls?: ChatAnyToolCall[];
  /** The call, for a request that used the deprecated `functions` (chat-legacy-functions.ts). */
  function_call?: ChatFunctionCall;
  /** Signatures and redacted thinking, when there are any (chat-reasoning-details.ts). */
  reasoning_details?: ChatReasoningDetailOut[];
  /** Text-part citations as OpenAI `url_citation`s, indices into the joined `content`. */
  annotations?: RenderedUrlCitation[];
}

export interface RenderedUrlCitation {
  type: "url_citation";
  url_citation: { url: string; title: string; start_index: number; end_index: number };
}

/**
 * Citations of a text part that starts at `offset` in chat's joined content -> url_citation
 * annotations. A citation without indices covers its whole part; chat has no cited-text field.
 */
export function renderCitations(
  part: { text: string; citations?: readonly Citation[] },
  offset: number,
  out: RenderedUrlCitation[],
  warn: (warning: Warning) => void,
  at: string,
): void {
  part.citations?.forEach((c, k) => {
    out.push({
      type: "url_citation",
      url_citation: {
        url: c.url,
        title: c.title ?? "",
        start_index: offset + (c.startIndex ?? 0),
        end_index: offset + (c.endIndex ?? part.text.length),
      },
    });
    if (c.citedText !== undefined) {
      warn({
        type: "dropped",
        feature: `${at}.citations[${k}].citedText`,
        message: "chat url_citation has no cited text",
      });
    }
  });
}

type Warn = (warning: Warning) => void;
const ignore: Warn = () => {};

/**
 * The canonical response -> a chat-completions body (`object: "chat.completion"`). A request that
 * used `functions` (`providerExtras.openai.legacyFunctions`) gets its call as `function_call`.
 */
export function renderChatResponse(
  response: Response,
  options?: StreamEncodeOptions,
): RenderedChatResponse {
  const warn = options?.onWarning ?? ignore;
  const legacy = options?.providerExtras?.openai?.legacyFunctions === true;
  const out: RenderedChatResponse = {
    id: response.id,
    object: "chat.completion",
    created: response.created,
    model: response.model,
    choices: outputsOf(response).map((output) => renderChoice(output, warn, legacy)),
    usage: renderChatUsage(response.usage),
  };
  const tier = chatServiceTier(response.usage.serviceTier, warn);
  if (tier !== undefined) out.service_tier = tier;
  warnDroppedUsage(response, warn);
  if (response.providerExtras?.gemini?.promptFeedback !== undefined) {
    warn({ type: "dropped", feature: "promptFeedback", message: "chat has no prompt feedback" });
  }
  const extras = response.extras?.chat;
  if (extras !== undefined) addFields(out, extras);
  return out;
}

export function warnDroppedUsage(response: Pick<Response, "usage">, warn: Warn): void {
  for (const [field, read] of Object.entries(usageFieldsChatDrops)) {
    if (read(response.usage) !== undefined) {
      warn({ type: "dropped", feature: `usage.${field}`, message: "chat usage has no such field" });
    }
  }
}

/** Chat's message has one content string: text parts are joined, other kinds gathered by kind. */
function renderChoice(choice: IndexedOutput, warn: Warn, legacy: boolean): RenderedChatChoice {
  const at = `choices[${choice.index}]`;
  const texts: string[] = [];
  let textLength = 0;
  const annotations: RenderedUrlCitation[] = [];
  const reasoning: string[] = [];
  const calls: ChatAnyToolCall[] = [];
  const details = renderReasoningDetails(choice.message.parts);
  choice.message.parts.forEach((part, j) => {
    const partAt = `${at}.message.parts[${j}]`;
    switch (part.type) {
      case "text":
        renderCitations(part, textLength, annotations, warn, partAt);
        texts.push(part.text);
        textLength += part.text.length;
        return;
      case "thinking":
        reasoning.push(part.text);
        return;
      case "tool-call":
        calls.push(renderChatToolCall(part));
        return;
      case "redacted-thinking":
        return;
      case "image":
      case "file":
        warn({
          type: "dropped",
          feature: partAt,
          message: `chat responses cannot carry ${part.type} parts`,
        });
        return;
    }
  });
  const message: RenderedChatMessage = {
    role: "assistant",
    content: texts.length === 0 ? null : texts.join(""),
    refusal: null,
  };
  if (reasoning.length > 0) message.reasoning_content = reasoning.join("");
  const legacyCall = legacy ? legacyReplyCall(calls as ChatToolCall[], at, warn) : undefined;
  if (legacyCall !== undefined) message.function_call = legacyCall;
  else if (calls.length > 0) message.tool_calls = calls;
  if (annotations.length > 0) message.annotations = annotations;
  if (details !== undefined) message.reasoning_details = details;
  if (isFinishReasonMapped(choice.finishReason)) {
    warn({
      type: "mapped",
      feature: `${at}.finishReason`,
      message: `chat has no "${choice.finishReason.unified}" finish reason; "stop" was sent`,
    });
  }
  const blockReason = droppedBlockReason(choice.finishReason);
  if (blockReason !== undefined) {
    warn({ type: "dropped", feature: `${at}.finishReason.raw`, message: blockReason });
  }
  if (choice.stopSequence !== undefined) {
    warn({
      type: "dropped",
      feature: `${at}.stopSequence`,
      message: "chat does not name the stop sequence",
    });
  }
  if (choice.providerExtras?.gemini?.safetyRatings !== undefined) {
    warn({
      type: "dropped",
      feature: `${at}.safetyRatings`,
      message: "chat has no safety ratings",
    });
  }
  return {
    index: choice.index,
    message,
    logprobs:
      choice.logprobs === undefined
        ? null
        : renderChatLogprobs(choice.logprobs, `${at}.logprobs`, warn),
    finish_reason: legacy
      ? legacyFinishReason(renderChatFinishReason(choice.finishReason))
      : renderChatFinishReason(choice.finishReason),
  };
}
