/**
 * A signature a format has no field for (Gemini's thoughtSignature on a functionCall or on text,
 * toward Responses or messages clients) rides in the one opaque field such clients replay as
 * received: a reasoning item's `encrypted_content`, a thinking block's `signature`. It is marked,
 * so the parse strips it and the upstream gets its bytes back unchanged:
 * - on a tool call: `interlingua.signature:<call id, URI-encoded>:<signature>`
 * - on visible text: `interlingua.signature::<signature>`
 */
export const SIGNATURE_PREFIX = "interlingua.signature:";

/**
 * A thinking block needs a signature on the messages wire; a thought that came with none (Gemini
 * signs calls, not thoughts) gets this mark, which the parse reads as "no signature".
 */
export const UNSIGNED_THINKING_MARK = "interlingua.unsigned:";

export const signatureContent = (callId: string, signature: string): string =>
  `${SIGNATURE_PREFIX}${encodeURIComponent(callId)}:${signature}`;

/** A marked signature's call id ("" for text) and signature; undefined if `content` is not one. */
export function parseSignatureContent(
  content: string,
): { callId: string; signature: string } | undefined {
  if (!content.startsWith(SIGNATURE_PREFIX)) return undefined;
  const rest = content.slice(SIGNATURE_PREFIX.length);
  const colon = rest.indexOf(":");
  if (colon < 0) return undefined;
  try {
    return { callId: decodeURIComponent(rest.slice(0, colon)), signature: rest.slice(colon + 1) };
  } catch {
    return undefined;
  }
}

/**
 * OpenAI's reasoning `encrypted_content` is a Fernet token (a 0x80 version byte, then a 64-bit
 * timestamp), so its base64 starts `gAAAA`; Anthropic's thinking signatures (base64 of a protobuf,
 * `E...`) and the gateway's own marks never do. A thinking signature verifies only at the
 * provider that made it, so a conversation that changed model family tells by this whose it is.
 */
export const isOpenAIReasoningContent = (signature: string): boolean =>
  signature.startsWith("gAAAA");

/** A signature the gateway wrote (a carried Gemini signature, the unsigned mark), not a provider's. */
export const isGatewaySignatureMark = (signature: string): boolean =>
  signature.startsWith("interlingua.");
