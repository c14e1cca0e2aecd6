import type { AssistantPart } from "./content-part.js";

/**
 * A thinking signature a format could not keep on its thinking part (a Gemini stream has no
 * signed thought part its clients keep, so an Anthropic thinking signature rides on the next
 * functionCall or visible text) is written with this prefix. When it comes back, the Anthropic
 * renderer knows it for one of its own, puts it back on the thinking block byte for byte, and a
 * Gemini signature is never mistaken for one.
 */
export const MOVED_THINKING_SIGNATURE_PREFIX = "interlingua.thinking:";

export const moveThinkingSignature = (signature: string): string =>
  MOVED_THINKING_SIGNATURE_PREFIX + signature;

/** The original signature when `signature` was moved, else undefined. */
export const movedThinkingSignature = (signature: string | undefined): string | undefined =>
  signature?.startsWith(MOVED_THINKING_SIGNATURE_PREFIX)
    ? signature.slice(MOVED_THINKING_SIGNATURE_PREFIX.length)
    : undefined;

const isMoved = (part: AssistantPart): boolean =>
  (part.type === "tool-call" || part.type === "text") &&
  movedThinkingSignature(part.signature) !== undefined;

/**
 * Puts a moved signature back on the thinking it was made for: the turn's unsigned thinking parts
 * before it, joined as they were streamed, signed byte for byte. Only a marked signature moves, so
 * another provider's signature is never handed on. `alone`: with no thinking part before it (its
 * text was never streamed), the signature stands as an empty signed thinking part (the Responses
 * API verifies the encrypted item alone); otherwise it is dropped (Anthropic signs the text too).
 */
export function restoreMovedThinkingSignature(
  parts: readonly AssistantPart[],
  options: { readonly alone: boolean },
): AssistantPart[] {
  const signedAt = parts.findIndex(isMoved);
  if (signedAt < 0) return [...parts];
  const signed = parts[signedAt] as Extract<AssistantPart, { type: "text" | "tool-call" }>;
  const signature = movedThinkingSignature(signed.signature) as string;
  const { signature: _moved, ...unsigned } = signed;
  const out: AssistantPart[] = [];
  let thinking: Extract<AssistantPart, { type: "thinking" }> | undefined;
  parts.forEach((part, i) => {
    if (i === signedAt) {
      if (thinking === undefined && options.alone)
        out.push({ type: "thinking", text: "", signature });
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

/** Whether any assistant turn carries a moved signature (so a request can be left as it is). */
export const hasMovedThinkingSignature = (parts: readonly AssistantPart[]): boolean =>
  parts.some(isMoved);
