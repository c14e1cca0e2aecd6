import type { UpstreamProtocolSpec } from "../upstream/upstream-protocols.ts";

/**
 * Whether a run of same-format upstream bytes (whole frames, or the start of one) holds only
 * plain content deltas: nothing the tap needs (usage, a finish reason, an error). Tested on the
 * raw bytes with native searches, so such chunks are neither decoded nor parsed (see
 * `sseTap`). Each test looks for quoted keys, which cannot occur inside a JSON string value
 * (their quotes would be escaped there); a form it does not recognise is never called plain.
 */
export interface PlainChunkTest {
  plain(bytes: Buffer): boolean;
  /** The content deltas in whole frames of such bytes (by a key each of them holds once). */
  deltas(bytes: Buffer): number;
}

function count(bytes: Buffer, needle: string): number {
  let n = 0;
  for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + needle.length)) n++;
  return n;
}

const has = (bytes: Buffer, needle: string) => bytes.includes(needle);

export const PLAIN_CHUNK: Record<UpstreamProtocolSpec["format"], PlainChunkTest | undefined> = {
  // Every finish_reason and usage is null (OpenAI writes `"usage":null` on each chunk when asked
  // for the usage chunk); a spaced `"usage": null` is not matched and so decoded.
  chat: {
    plain: (bytes) =>
      count(bytes, '"finish_reason"') === count(bytes, '"finish_reason":null') &&
      count(bytes, '"usage"') === count(bytes, '"usage":null') &&
      !has(bytes, '"error"') &&
      !has(bytes, '"x_groq"') &&
      !has(bytes, '"choices":[]'),
    deltas: (bytes) => count(bytes, '"delta"'),
  },
  // Usage rides on message_start and message_delta, the stop reason on message_delta.
  messages: {
    plain: (bytes) =>
      !has(bytes, '"message_start"') && !has(bytes, '"message_delta"') && !has(bytes, '"error"'),
    deltas: (bytes) => count(bytes, '"content_block_delta"'),
  },
  // Gemini's cumulative usage rides on every frame, and a later frame may carry the final count:
  // every frame is decoded.
  native: undefined,
};

const LF2 = "\n\n";
const CRLF2 = "\r\n\r\n";

/** The end of the last whole frame in `bytes` (0 when none ends there). */
export function lastFrameEnd(bytes: Buffer): number {
  const lf = bytes.lastIndexOf(LF2);
  const crlf = bytes.lastIndexOf(CRLF2);
  return Math.max(lf < 0 ? 0 : lf + LF2.length, crlf < 0 ? 0 : crlf + CRLF2.length);
}
