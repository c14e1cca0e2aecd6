import {
  type FinishReason,
  type IndexedOutput,
  type RenderOptions,
  type Response,
  type ResponseBase,
  setAsideMalformedUsage,
  type TextPart,
  withOutputs,
} from "@interlingua/core-types";
import { malformedReplyFromZod } from "@interlingua/errors";
import {
  type ChatChoice,
  type ChatResponseWire,
  chatResponseKeys,
  chatResponseSchema,
  chatUsageSchema,
} from "./chat-api.js";
import { legacyCallId, withLegacyCall } from "./chat-legacy-functions.js";
import { parseChatLogprobs } from "./chat-logprobs.js";
import { parseReasoningDetails, withReasoning } from "./chat-reasoning-details.js";
import { parseChatFinishReason } from "./map-chat-finish-reason.js";
import { parseChatUsage } from "./map-chat-usage.js";
import { parseChatAnnotations } from "./parse-chat-annotations.js";
import { parseChatToolCalls } from "./parse-chat-tool-calls.js";

/**
 * A chat-completions response body (OpenAI or a compatible upstream) -> the canonical response.
 * Unknown fields inside choices and usage are ignored; unknown top-level fields
 * (`system_fingerprint`, `x_groq`, ...) are kept in `extras.chat`. Choice 0 is the primary
 * output, later ones alternatives; `choices: []` is `noOutput` (core-types `withOutputs`).
 */
export function parseChatResponse(wire: unknown, options?: RenderOptions): Response {
  const result = chatResponseSchema.safeParse(
    setAsideMalformedUsage(wire, "usage", chatUsageSchema, options?.onWarning),
  );
  if (!result.success) throw malformedReplyFromZod(result.error, "chat response");
  return chatResponseToCanonical(result.data, options);
}

export function chatResponseToCanonical(wire: ChatResponseWire, options?: RenderOptions): Response {
  const response: ResponseBase = {
    id: wire.id,
    model: wire.model,
    created: wire.created,
    usage: parseChatUsage(wire.usage, wire.service_tier),
  };
  const extras: Record<string, unknown> = {};
  let found = false;
  for (const key in wire) {
    if (!chatResponseKeys.has(key)) {
      extras[key] = wire[key];
      found = true;
    }
  }
  if (found) response.extras = { chat: extras };
  return withOutputs(
    response,
    wire.choices.map(parseChoice),
    options?.onWarning,
    (i) => `choices[${i}]`,
  );
}

/**
 * Parts in chat's fixed order: reasoning, text (content + refusal), tool calls. A refusal is the model
 * declining to answer: its text becomes a text part (so every client format shows it) and the
 * unified finish reason becomes content-filter, the raw value staying as sent.
 */
function parseChoice(choice: ChatChoice): IndexedOutput {
  const message = choice.message;
  // Content then refusal, as one text: a stream sends them down the same text channel.
  const text = (message.content ?? "") + (message.refusal ?? "");
  const texts: TextPart[] = text === "" ? [] : [{ type: "text", text }];
  const citations = parseChatAnnotations(message.annotations);
  if (texts[0] !== undefined && citations.length > 0) texts[0].citations = citations;
  // A reply to `functions` names its one call without an id (chat-legacy-functions.ts).
  const calls = parseChatToolCalls(
    withLegacyCall(message.tool_calls, message.function_call, legacyCallId(0)),
  );
  const reasoning = parseReasoningDetails(message.reasoning_details, message.thinking_blocks);
  const parts = withReasoning(
    reasoning,
    message.reasoning_content || message.reasoning,
    texts,
    calls,
  );
  let finishReason: FinishReason = parseChatFinishReason(choice.finish_reason);
  if (message.refusal) finishReason = { ...finishReason, unified: "content-filter" };
  const out: IndexedOutput = {
    index: choice.index,
    message: { role: "assistant", parts },
    finishReason,
  };
  const logprobs = parseChatLogprobs(choice.logprobs);
  if (logprobs !== undefined) out.logprobs = { content: logprobs };
  return out;
}
