import { base64ToText, textToBase64 } from "./base64-text.js";
import type { AssistantPart } from "./content-part.js";

/**
 * A thinking signature a format could not keep on its thinking part (a Gemini stream has no
 * signed thought part its clients keep, so an Anthropic thinking signature rides on the next
 * functionCall or visible text) is written with this prefix. When it comes back, the Anthropic
 * renderer knows it for one of its own, puts it back on the thinking block byte for byte, and a
 * Gemini signature is never mistaken for one.
 */
export const MOVED_THINKING_SIGNATURE_PREFIX = "interlingua.thinking:";

/**
 * The self-sufficient form: the thinking's text and signature both, base64url of the JSON pair.
 * Gemini CLI keeps only the visible parts and their thoughtSignature, never the thought parts; an
 * Anthropic upstream verifies the text with the signature, so the text has to travel too.
 */
export const MOVED_THINKING_PREFIX = "interlingua.thought:";

export const moveThinkingSignature = (signature: string, text?: string): string =>
  text === undefined
    ? MOVED_THINKING_SIGNATURE_PREFIX + signature
    : MOVED_THINKING_PREFIX + toBase64Url(JSON.stringify([text, signature]));

/** A moved thinking: its signature, and its text when the signature carried it. */
export interface MovedThinking {
  readonly signature: string;
  readonly text?: string;
}

export function movedThinking(signature: string | undefined): MovedThinking | undefined {
  if (signature === undefined) return undefined;
  if (signature.startsWith(MOVED_THINKING_SIGNATURE_PREFIX)) {
    return { signature: signature.slice(MOVED_THINKING_SIGNATURE_PREFIX.length) };
  }
  if (!signature.startsWith(MOVED_THINKING_PREFIX)) return undefined;
  try {
    const text = fromBase64Url(signature.slice(MOVED_THINKING_PREFIX.length));
    if (text === undefined) return undefined;
    const pair = JSON.parse(text);
    if (Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string") {
      return { text: pair[0], signature: pair[1] };
    }
  } catch {
    // Not one of ours after all: treated as any other provider's signature.
  }
  return undefined;
}

/** The original signature when `signature` was moved, else undefined. */
export const movedThinkingSignature = (signature: string | undefined): string | undefined =>
  movedThinking(signature)?.signature;

const toBase64Url = (text: string): string =>
  textToBase64(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** The text of base64url data; undefined when it is not base64 of UTF-8. */
const fromBase64Url = (data: string): string | undefined =>
  base64ToText(data.replace(/-/g, "+").replace(/_/g, "/"));

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
  const moved = movedThinking(signed.signature) as MovedThinking;
  const signature = moved.signature;
  const { signature: _moved, ...unsigned } = signed;
  if (moved.text !== undefined) return withCarriedThinking(parts, signedAt, unsigned, moved);
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

/**
 * A signature that carried its thinking: that thinking, exactly as signed, stands where the
 * turn's unsigned thinking stood (a client that sent it back sent the same text), or just before
 * the part that carried it.
 */
function withCarriedThinking(
  parts: readonly AssistantPart[],
  signedAt: number,
  unsigned: AssistantPart,
  moved: MovedThinking,
): AssistantPart[] {
  const thinking: AssistantPart = {
    type: "thinking",
    text: moved.text ?? "",
    signature: moved.signature,
  };
  const out: AssistantPart[] = [];
  let placed = false;
  parts.forEach((part, i) => {
    if (i === signedAt) {
      if (!placed) out.push(thinking);
      out.push(unsigned);
    } else if (part.type === "thinking" && part.signature === undefined && i < signedAt) {
      if (!placed) out.push(thinking);
      placed = true;
    } else {
      out.push(part);
    }
  });
  return out;
}

/** Whether any assistant turn carries a moved signature (so a request can be left as it is). */
export const hasMovedThinkingSignature = (parts: readonly AssistantPart[]): boolean =>
  parts.some(isMoved);
