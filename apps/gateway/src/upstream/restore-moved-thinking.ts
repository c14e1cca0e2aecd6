import {
  hasMovedThinkingSignature,
  type Request,
  restoreMovedThinkingSignature,
  type Warning,
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

/**
 * Toward the Responses API: signatures on calls and text are Gemini's (thoughtSignature, or Gemini
 * CLI's `skip_thought_signature_validator`), which OpenAI has no field for; sent as the marked
 * reasoning items a Responses client gets, OpenAI would refuse them as unverifiable reasoning.
 */
export function withoutCallSignatures(
  request: Request,
  onWarning: (warning: Warning) => void,
): Request {
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
