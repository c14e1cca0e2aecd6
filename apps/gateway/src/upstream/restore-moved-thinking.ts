import {
  hasMovedThinkingSignature,
  type Request,
  restoreMovedThinkingSignature,
} from "@interlingua/core-types";

/**
 * A signature a client's stream could not keep on its thinking rode on the next part (core-types
 * moved-signature.ts); it goes back on the thinking: OpenAI verifies `encrypted_content` exactly.
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
