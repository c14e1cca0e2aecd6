import { addFields } from "@interlingua/core-types";
import type { ChatChoice, ChatResponseWire } from "./chat-api.js";
import { chatResponseKeys } from "./chat-api.js";
import { normalizeChatLogprobs } from "./chat-logprobs.js";
import {
  chatToUnifiedFinishReason,
  isChatFinishReason,
  unifiedToChatFinishReason,
} from "./map-chat-finish-reason.js";
import { renderChatUsage } from "./map-chat-usage.js";
import { normalizeToolCall } from "./normalize-chat-request.js";
import type {
  RenderedChatChoice,
  RenderedChatMessage,
  RenderedChatResponse,
} from "./render-chat-response.js";

/**
 * What a chat response becomes after parse and render (law 1), rewritten on the wire. Exactly:
 * - `object` is "chat.completion"; `service_tier: null` is removed;
 * - usage is written in full: every detail present (absent ones 0), `total_tokens` recomputed
 *   as prompt + completion, provider-specific usage fields dropped; no usage means zeros;
 * - choices keep `index`, `message`, `finish_reason` (a value chat does not define becomes the
 *   chat value of its unified meaning: "stop", or "content_filter" after a refusal); `logprobs`
 *   keeps its tokens (refusal tokens after content ones, `refusal: null`, `bytes` null when
 *   absent, `top_logprobs` [] when absent), and is null without tokens or in another shape;
 *   `message.refusal` is null (its text joins content);
 * - a message's `refusal` is appended to its content, empty content becomes null, `reasoning`
 *   becomes `reasoning_content` (empty: removed), an empty `tool_calls` goes, tool calls get
 *   `type: "function"`, lose `index`, and "" arguments become "{}"; `annotations` and other
 *   unknown message fields go;
 * - unknown top-level fields are kept.
 */
export function normalizeChatResponse(wire: ChatResponseWire): RenderedChatResponse {
  const out: RenderedChatResponse = {
    id: wire.id,
    object: "chat.completion",
    created: wire.created,
    model: wire.model,
    choices: wire.choices.map(normalizeChoice),
    usage: renderChatUsage({
      inputTokens: wire.usage?.prompt_tokens ?? 0,
      outputTokens: wire.usage?.completion_tokens ?? 0,
      cachedInputTokens: wire.usage?.prompt_tokens_details?.cached_tokens ?? 0,
      cacheWriteTokens: wire.usage?.prompt_tokens_details?.cache_write_tokens ?? 0,
      thinkingTokens: wire.usage?.completion_tokens_details?.reasoning_tokens ?? 0,
    }),
  };
  if (typeof wire.service_tier === "string") out.service_tier = wire.service_tier;
  addFields(out, wire, (key) => chatResponseKeys.has(key));
  return out;
}

function normalizeChoice(choice: ChatChoice): RenderedChatChoice {
  const m = choice.message;
  const text = (m.content ?? "") + (m.refusal ?? "");
  const message: RenderedChatMessage = {
    role: "assistant",
    content: text === "" ? null : text,
    refusal: null,
  };
  const reasoning = m.reasoning_content || m.reasoning;
  if (reasoning) message.reasoning_content = reasoning;
  if (m.tool_calls != null && m.tool_calls.length > 0) {
    message.tool_calls = m.tool_calls.map(normalizeToolCall);
  }
  return {
    index: choice.index,
    message,
    logprobs: normalizeChatLogprobs(choice.logprobs),
    finish_reason: finishReason(choice),
  };
}

/** A chat value stays; anything else is the table's chat value for its unified meaning. */
function finishReason(choice: ChatChoice): string {
  const raw = choice.finish_reason;
  if (isChatFinishReason(raw ?? undefined) && raw != null) return raw;
  if (choice.message.refusal) return unifiedToChatFinishReason["content-filter"];
  const unified =
    raw != null && Object.hasOwn(chatToUnifiedFinishReason, raw)
      ? chatToUnifiedFinishReason[raw]!
      : "other";
  return unifiedToChatFinishReason[unified];
}
