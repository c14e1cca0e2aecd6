import {
  type AssistantMessage,
  type AssistantPart,
  parseSignatureContent,
  SIGNATURE_PREFIX,
  signatureContent,
} from "@interlingua/core-types";

// The signature marks are shared with the messages format (core-types carried-signature.ts).
export { parseSignatureContent, SIGNATURE_PREFIX, signatureContent };

/**
 * The reasoning item is the one place a Responses client keeps opaque content and replays it
 * (`encrypted_content`, which the OpenAI SDKs and the Agents SDK send back as received). Thinking
 * signatures go there as they are; what has no Responses equivalent rides in a reasoning item of
 * its own, marked by a prefix that parse strips, so the upstream gets its bytes back unchanged:
 * - Anthropic redacted thinking: `interlingua.redacted:<data>`
 * - a signature on a tool call (Gemini thoughtSignature): `interlingua.signature:<call id, URI-encoded>:<signature>`
 * - a signature on visible text: `interlingua.signature::<signature>`
 */
export const REDACTED_PREFIX = "interlingua.redacted:";

/** The `encrypted_content` of the extra reasoning item a part needs, if any. */
export function opaqueContentOf(part: AssistantPart): string | undefined {
  switch (part.type) {
    case "redacted-thinking":
      return REDACTED_PREFIX + part.data;
    case "tool-call":
      return part.signature === undefined ? undefined : signatureContent(part.id, part.signature);
    case "text":
      return part.signature === undefined ? undefined : signatureContent("", part.signature);
    default:
      return undefined;
  }
}

/**
 * Turns marked reasoning parts back into what they stand for: redacted thinking, or a signature
 * put back on its tool call (by id) or on the turn's first text part.
 */
export function liftOpaqueReasoning(message: AssistantMessage): AssistantMessage {
  if (!message.parts.some(isMarked)) return message;
  const parts: AssistantPart[] = [];
  const callSignatures = new Map<string, string>();
  let textSignature: string | undefined;
  for (const part of message.parts) {
    if (part.type !== "thinking" || part.signature === undefined || !isMarked(part)) {
      parts.push(part);
      continue;
    }
    const content = part.signature;
    if (content.startsWith(REDACTED_PREFIX)) {
      parts.push({ type: "redacted-thinking", data: content.slice(REDACTED_PREFIX.length) });
      continue;
    }
    const { callId, signature } = parseSignatureContent(content) as {
      callId: string;
      signature: string;
    };
    if (callId === "") textSignature ??= signature;
    else callSignatures.set(callId, signature);
  }
  let textSigned = false;
  for (const part of parts) {
    if (part.type === "tool-call") {
      const signature = callSignatures.get(part.id);
      if (signature !== undefined) part.signature = signature;
    } else if (part.type === "text" && textSignature !== undefined && !textSigned) {
      part.signature = textSignature;
      textSigned = true;
    }
  }
  if (textSignature !== undefined && !textSigned) {
    parts.push({ type: "text", text: "", signature: textSignature });
  }
  return { ...message, parts };
}

function isMarked(part: AssistantPart): boolean {
  if (part.type !== "thinking" || part.signature === undefined || part.text !== "") return false;
  if (part.signature.startsWith(REDACTED_PREFIX)) return true;
  return (
    part.signature.startsWith(SIGNATURE_PREFIX) &&
    part.signature.indexOf(":", SIGNATURE_PREFIX.length) >= 0
  );
}
