/**
 * The simulator's tokenizer: one token per four UTF-16 code units, rounded up.
 * Crude on purpose: tests can compute every usage number by hand.
 */
export function countTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Images, audio and files in a prompt count a flat amount each, whatever their size. */
export const MEDIA_PART_TOKENS = 256;

export function promptTokens(promptChars: number, mediaParts: number): number {
  return Math.ceil(promptChars / 4) + mediaParts * MEDIA_PART_TOKENS;
}
