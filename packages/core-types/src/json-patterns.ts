/**
 * Pieces of regular expressions that match JSON exactly as `JSON.parse` reads it. Stream decoders
 * use them to recognise a provider's compact delta frame and parse only its text, a string
 * literal, instead of the whole frame (several times faster on the frames that make up nearly all
 * of a stream); anything they do not match takes the general path.
 */

/**
 * A JSON string literal, quotes included: no raw control characters, only JSON's escapes. Runs of
 * plain characters between escapes match as one class repeat (the "unrolled loop"), not one
 * alternation per character: the same strings, matched faster.
 */
export const JSON_STRING_PATTERN = String.raw`"[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*"`;

/**
 * The longest frame worth matching against them: a pattern of alternatives repeated over a string
 * of megabytes (a streamed image's base64) runs out of stack, and a frame that long gains nothing
 * from the fast path anyway.
 */
export const COMPACT_FRAME_MAX_CHARS = 65_536;

/** A non-negative JSON integer of at most nine digits (no sign, fraction, exponent or leading 0). */
export const JSON_INDEX_PATTERN = String.raw`(?:0|[1-9]\d{0,8})`;
