/**
 * The simulator's tokenizer: one token per four UTF-16 code units, rounded up.
 * Crude on purpose: tests can compute every usage number by hand.
 */
export const CHARS_PER_TOKEN = 4;

export function countTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Images, audio and files in a prompt count a flat amount each, whatever their size. */
export const MEDIA_PART_TOKENS = 256;

export function promptTokens(promptChars: number, mediaParts: number): number {
  return Math.ceil(promptChars / CHARS_PER_TOKEN) + mediaParts * MEDIA_PART_TOKENS;
}
