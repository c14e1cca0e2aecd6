/**
 * The signature a thinking block carries when its thought has none (a Gemini thought summary,
 * an OpenAI reasoning summary). Anthropic's thinking block requires a non-empty signature, and
 * an empty string would read as one that was lost; this mark says "unsigned" instead. Every
 * parser of this package reads it (and "") back as no signature, so the thought returns to its
 * own upstream unsigned, as it came. An Anthropic upstream never sees it as a signature of its
 * own: rendering a thinking part without a signature to an Anthropic request keeps it unsigned.
 */
export const UNSIGNED_THINKING = "interlingua.unsigned";

/** A wire signature as the canonical model keeps it: none for "" and for the unsigned mark. */
export function signatureOf(signature: string | undefined | null): string | undefined {
  return signature && signature !== UNSIGNED_THINKING ? signature : undefined;
}
