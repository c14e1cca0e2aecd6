import { base64Digest } from "../core/hash.ts";

/**
 * The signature of a thinking block: a digest of its text. Deterministic, so tests can predict
 * it, and checkable, so a thinking block sent back altered is refused like the real API does.
 */
export function thinkingSignature(thinking: string): string {
  return base64Digest(`anthropic-thinking:${thinking}`);
}
