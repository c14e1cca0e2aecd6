import {
  type AssistantPart,
  isGatewaySignatureMark,
  isOpenAIReasoningContent,
  type Request,
  type Warning,
} from "@interlingua/core-types";
import type { MessagesMessage } from "./messages-api.js";

/**
 * Anthropic verifies a thinking block's signature and refuses the whole request when it is not
 * its own (`Invalid signature in thinking block`). A conversation that moved here from another
 * model family carries thinking signed elsewhere: OpenAI's `encrypted_content` (a chat, messages
 * or Responses client kept it as the thinking's signature), or, in a messages body, the marks the
 * gateway wrote for Gemini's thoughts and signatures. Such thinking is dropped, warned; a tool
 * turn left without a signed block then goes with thinking off (`withSignedToolTurn`,
 * `fitThinkingConstraints`), as Anthropic accepts.
 */
const WARNING: Warning = {
  type: "dropped",
  feature: "parts.thinking",
  message:
    "thinking signed by another provider (the conversation changed model family) cannot be replayed to Anthropic, which verifies signatures",
};

const isForeignPart = (part: AssistantPart): boolean =>
  part.type === "thinking" &&
  part.signature !== undefined &&
  isOpenAIReasoningContent(part.signature);

/** The canonical request without thinking another provider signed (protocol `prepare`). */
export function withoutForeignThinking(
  request: Request,
  onWarning: (warning: Warning) => void,
): Request {
  if (!request.messages.some((m) => m.role === "assistant" && m.parts.some(isForeignPart))) {
    return request;
  }
  onWarning(WARNING);
  return {
    ...request,
    messages: request.messages.map((message) =>
      message.role === "assistant"
        ? { ...message, parts: message.parts.filter((part) => !isForeignPart(part)) }
        : message,
    ),
  };
}

type Block = { type?: unknown; signature?: unknown };

const isForeignBlock = (block: Block): boolean =>
  block.type === "thinking" &&
  typeof block.signature === "string" &&
  (isGatewaySignatureMark(block.signature) || isOpenAIReasoningContent(block.signature));

/** A messages body forwarded as sent, without thinking blocks another provider signed. */
export function withoutForeignThinkingBlocks(
  wire: Record<string, unknown>,
  onWarning: (warning: Warning) => void,
): Record<string, unknown> {
  const messages = wire["messages"];
  if (!Array.isArray(messages)) return wire;
  const foreign = (messages as MessagesMessage[]).some(
    (m) =>
      m?.role === "assistant" &&
      Array.isArray(m.content) &&
      m.content.some((block) => isForeignBlock(block as Block)),
  );
  if (!foreign) return wire;
  onWarning(WARNING);
  return {
    ...wire,
    messages: (messages as MessagesMessage[]).map((m) =>
      m?.role === "assistant" && Array.isArray(m.content)
        ? { ...m, content: m.content.filter((block) => !isForeignBlock(block as Block)) }
        : m,
    ),
  };
}
