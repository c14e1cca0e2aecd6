import { type AssistantPart, movedThinkingSignature, type Request } from "@interlingua/core-types";

/**
 * A reasoning signature that a client's stream format could not keep on its thinking part rode on
 * the next call or text part, marked (core-types moved-signature.ts: a Gemini-format client
 * streamed from the Responses API). Toward the Responses API it goes back on the turn's thinking,
 * which renders as the reasoning item whose `encrypted_content` OpenAI verifies byte for byte.
 * Only a marked signature moves, so another provider's signature is never handed to OpenAI.
 */
export function restoreMovedThinking(request: Request): Request {
  if (!request.messages.some((m) => m.role === "assistant" && m.parts.some(isMoved))) {
    return request;
  }
  return {
    ...request,
    messages: request.messages.map((message) =>
      message.role === "assistant" ? { ...message, parts: restore(message.parts) } : message,
    ),
  };
}

const isMoved = (part: AssistantPart) =>
  (part.type === "tool-call" || part.type === "text") &&
  movedThinkingSignature(part.signature) !== undefined;

function restore(parts: readonly AssistantPart[]): AssistantPart[] {
  const signedAt = parts.findIndex(isMoved);
  if (signedAt < 0) return [...parts];
  const signed = parts[signedAt] as Extract<AssistantPart, { type: "text" | "tool-call" }>;
  const signature = movedThinkingSignature(signed.signature) as string;
  const { signature: _moved, ...unsigned } = signed;
  const out: AssistantPart[] = [];
  let thinking: Extract<AssistantPart, { type: "thinking" }> | undefined;
  parts.forEach((part, i) => {
    if (i === signedAt) {
      // No thinking part before it (its text was not streamed): the signature stands alone.
      if (thinking === undefined) out.push({ type: "thinking", text: "", signature });
      out.push(unsigned);
    } else if (part.type === "thinking" && part.signature === undefined && i < signedAt) {
      if (thinking === undefined) {
        thinking = { type: "thinking", text: part.text, signature };
        out.push(thinking);
      } else {
        thinking.text += part.text;
      }
    } else {
      out.push(part);
    }
  });
  return out;
}
