import {
  type AssistantPart,
  effortForBudget,
  hasMovedThinkingSignature,
  isOpenAIReasoningContent,
  type Protocol,
  type Request,
  restoreMovedThinkingSignature,
  type Warning,
} from "@interlingua/core-types";
import { type GatewayError, parseOpenAIError } from "@interlingua/errors";
import { readResponsesReplyUsage } from "./read-responses-reply-usage.js";
import { responses } from "./responses-api-codec.js";
import { responsesCachePlan } from "./responses-cache-plan.js";
import { interlinguaResponses } from "./responses-codec.js";
import { responsesRequestFields, untranslatedResponsesFields } from "./responses-request-fields.js";
import { responsesTokenCount } from "./responses-token-count.js";
import { RESPONSES_TOOL_NAME_RULE } from "./responses-tool-name.js";

/**
 * OpenAI's Responses API as the `openai-responses` channel protocol, and the `responses` client
 * format, whose enveloped shape is the API reference's (so a client body is translated, never
 * forwarded as is).
 */
export const responsesProtocol: Protocol<GatewayError> = {
  format: "responses",
  upstream: "openai-responses",
  codec: interlinguaResponses,
  upstreamCodec: responses,
  forwardsClientBody: false,
  // Both codecs keep a responses body's other fields in extras.responses.
  carries: "responses",
  requestFields: responsesRequestFields,
  untranslatedFields: untranslatedResponsesFields,
  path: () => "/v1/responses",
  probes: ["/v1/models"],
  headers: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  toolNames: RESPONSES_TOOL_NAME_RULE,
  // Reasoning summaries come only when asked for.
  hidesThoughts: true,
  usageOnRequest: false,
  replyUsage: readResponsesReplyUsage,
  severalOutputs: false,
  streamComments: true,
  cachePlan: responsesCachePlan,
  // The Responses API answers in OpenAI's one error shape, named as itself in diagnostics.
  parseError: (status, body, options) =>
    parseOpenAIError(status, body, options, "openai-responses"),
  vendor: "openai",
  operation: "chat",
  // Namespace and custom tools are its own.
  clientTools: true,
  tokenCount: responsesTokenCount,
  forward: (client, model) => ({ wire: { ...client, model }, injectedUsage: false }),
  prepare: (request, onWarning) =>
    budgetAsEffort(
      withoutForeignThinking(
        withoutCallSignatures(restoreMovedThinking(request), onWarning),
        onWarning,
      ),
      onWarning,
    ),
  finish: statelessResponses,
};

const ENCRYPTED_REASONING = "reasoning.encrypted_content";

/**
 * A gateway keeps no response on OpenAI's side (`store: false`): every turn carries its whole
 * history. Reasoning then comes back only as `encrypted_content`, which OpenAI returns only when
 * asked, so a request that reasons (or replays reasoning) asks for it, and the client gets it to
 * send back on its next turn. Models that do not reason refuse the ask, so others go without.
 */
export function statelessResponses(body: Record<string, unknown>): Record<string, unknown> {
  const input = Array.isArray(body["input"]) ? (body["input"] as { type?: unknown }[]) : [];
  const reasons = body["reasoning"] != null || input.some((item) => item?.type === "reasoning");
  const include = Array.isArray(body["include"]) ? (body["include"] as unknown[]) : [];
  return {
    ...body,
    store: typeof body["store"] === "boolean" ? body["store"] : false,
    ...(reasons && !include.includes(ENCRYPTED_REASONING)
      ? { include: [...include, ENCRYPTED_REASONING] }
      : {}),
  };
}

/**
 * The Responses API takes a reasoning effort, not a token budget (Anthropic's and Gemini's
 * form): a budget becomes the effort that spends about as much, as it does toward chat.
 */
function budgetAsEffort(request: Request, onWarning: (warning: Warning) => void): Request {
  const thinking = request.thinking;
  if (thinking === undefined || thinking.type === "disabled") return request;
  const { budgetTokens, ...rest } = thinking;
  // With an effort too, the codec reports the budget it leaves out.
  if (budgetTokens === undefined || thinking.effort !== undefined) return request;
  const effort = effortForBudget(budgetTokens);
  onWarning({
    type: "mapped",
    feature: "thinking.budgetTokens",
    message: `a thinking budget of ${budgetTokens} tokens is sent as reasoning.effort "${effort}"`,
  });
  return { ...request, thinking: { ...rest, effort } };
}

/**
 * A signature a client's stream could not keep on its thinking rode on the next part (core-types
 * moved-signature.ts); it goes back on the thinking: OpenAI verifies `encrypted_content` exactly.
 */
function restoreMovedThinking(request: Request): Request {
  const moved = request.messages.some(
    (m) => m.role === "assistant" && hasMovedThinkingSignature(m.parts),
  );
  if (!moved) return request;
  return {
    ...request,
    messages: request.messages.map((message) =>
      message.role === "assistant"
        ? { ...message, parts: restoreMovedThinkingSignature(message.parts, { alone: true }) }
        : message,
    ),
  };
}

/**
 * Signatures on calls and text are Gemini's (thoughtSignature, or Gemini CLI's
 * `skip_thought_signature_validator`), which OpenAI has no field for; sent as the marked reasoning
 * items a Responses client gets, OpenAI would refuse them as unverifiable reasoning.
 */
function withoutCallSignatures(request: Request, onWarning: (warning: Warning) => void): Request {
  let dropped = false;
  const messages = request.messages.map((message) => {
    if (message.role !== "assistant") return message;
    if (
      !message.parts.some(
        (p) => (p.type === "tool-call" || p.type === "text") && p.signature !== undefined,
      )
    ) {
      return message;
    }
    dropped = true;
    return {
      ...message,
      parts: message.parts.map((part) => {
        if ((part.type !== "tool-call" && part.type !== "text") || part.signature === undefined)
          return part;
        const { signature: _gemini, ...rest } = part;
        return rest;
      }),
    };
  });
  if (!dropped) return request;
  onWarning({
    type: "dropped",
    feature: "parts.signature",
    message: "signatures on calls and text (Gemini's) have no place in the Responses API",
  });
  return { ...request, messages };
}

/** Thinking another provider signed: its signature, or Anthropic's redacted thinking. */
const isForeignThinking = (part: AssistantPart): boolean =>
  part.type === "redacted-thinking" ||
  (part.type === "thinking" &&
    part.signature !== undefined &&
    !isOpenAIReasoningContent(part.signature));

/**
 * OpenAI verifies a replayed reasoning item's `encrypted_content` and refuses the whole request
 * when it is not its own (`invalid_encrypted_content`). A conversation that moved here from
 * another model family (an Anthropic thinking block kept by a chat, messages or Responses client)
 * carries thinking signed elsewhere: it is dropped, warned, and the turn goes on without it.
 */
function withoutForeignThinking(request: Request, onWarning: (warning: Warning) => void): Request {
  const foreign = request.messages.some(
    (m) => m.role === "assistant" && m.parts.some(isForeignThinking),
  );
  if (!foreign) return request;
  onWarning({
    type: "dropped",
    feature: "parts.thinking",
    message:
      "thinking signed by another provider (the conversation changed model family) cannot be replayed to OpenAI, which verifies encrypted_content",
  });
  return {
    ...request,
    messages: request.messages.map((message) =>
      message.role === "assistant"
        ? { ...message, parts: message.parts.filter((part) => !isForeignThinking(part)) }
        : message,
    ),
  };
}
