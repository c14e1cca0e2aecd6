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
