import {
  hasMovedThinkingSignature,
  type Request,
  restoreMovedThinkingSignature,
} from "@interlingua/core-types";

/**
 * A reasoning signature that a client's stream format could not keep on its thinking part rode on
 * the next call or text part, marked (core-types moved-signature.ts: a Gemini-format client
 * streamed from the Responses API). Toward the Responses API it goes back on the turn's thinking,
 * which renders as the reasoning item whose `encrypted_content` OpenAI verifies byte for byte, and
 * stands alone when the thinking text was never streamed.
 */
export function restoreMovedThinking(request: Request): Request {
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
