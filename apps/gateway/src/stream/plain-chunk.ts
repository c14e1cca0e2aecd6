import type { UpstreamProtocolSpec } from "../upstream/upstream-protocols.ts";

/**
 * Where, in a run of same-format upstream bytes, the tap finds something it needs (usage, a
 * finish reason, an error): everything before the frame that holds it is plain content deltas,
 * and goes by unparsed (see `sseTap`). Found on the raw bytes with native searches for quoted
 * keys, which cannot occur inside a JSON string value (their quotes would be escaped there); a
 * form a test does not recognise is always called needed, so a frame is never skipped wrongly,
 * only parsed needlessly.
 */
export interface PlainChunkTest {
  /**
   * A scan of `bytes`: `needed(from)` is the offset of the first needed key at or after `from`
   * (`bytes.length` when there is none). Calls with growing `from` cost one pass over the bytes
   * in all, however many needed frames there are.
   */
  scan(bytes: Buffer): (from: number) => number;
  /** The content deltas in the whole frames of `bytes` between `from` and `to`. */
  deltas(bytes: Buffer, from: number, to: number): number;
}

type Finder = (from: number) => number;

/**
 * The first `needle` at or after `from` that `needed` accepts (all of them without it), as a
 * finder that remembers its last answer: a later, larger `from` at or before it gets it again
 * without a search.
 */
function finder(bytes: Buffer, needle: string, needed?: (at: number) => boolean): Finder {
  let found = -1;
  let done = false;
  return (from) => {
    if (done) return bytes.length;
    if (found >= from) return found;
    let at = bytes.indexOf(needle, from);
    while (at >= 0 && needed !== undefined && !needed(at)) {
      at = bytes.indexOf(needle, at + needle.length);
    }
    if (at < 0) {
      done = true;
      return bytes.length;
    }
    found = at;
    return at;
  };
}

function earliest(finders: Finder[]): (from: number) => number {
  return (from) => {
    let first = Number.POSITIVE_INFINITY;
    for (const find of finders) first = Math.min(first, find(from));
    return first;
  };
}

const NULL = Buffer.from(":null");

/** Whether the key at `at` (of `length` bytes) is not followed by `:null` (or may not be). */
const notNull = (bytes: Buffer, length: number) => (at: number) => {
  const value = at + length;
  return (
    value + NULL.length > bytes.length ||
    bytes.compare(NULL, 0, NULL.length, value, value + NULL.length) !== 0
  );
};

function count(bytes: Buffer, needle: string, from: number, to: number): number {
  let n = 0;
  for (
    let at = bytes.indexOf(needle, from);
    at >= 0 && at < to;
    at = bytes.indexOf(needle, at + needle.length)
  ) {
    n++;
  }
  return n;
}

const FINISH_REASON = '"finish_reason"';
const USAGE = '"usage"';

export const PLAIN_CHUNK: Record<UpstreamProtocolSpec["format"], PlainChunkTest | undefined> = {
  // A finish_reason or usage that is not null (OpenAI writes `"usage":null` on each chunk when
  // asked for the usage chunk; a spaced `"usage": null` is not matched and so needed), an error,
  // Groq's usage, or the usage chunk's empty choices.
  chat: {
    scan: (bytes) =>
      earliest([
        finder(bytes, FINISH_REASON, notNull(bytes, FINISH_REASON.length)),
        finder(bytes, USAGE, notNull(bytes, USAGE.length)),
        finder(bytes, '"error"'),
        finder(bytes, '"x_groq"'),
        finder(bytes, '"choices":[]'),
      ]),
    deltas: (bytes, from, to) => count(bytes, '"delta"', from, to),
  },
  // Usage rides on message_start and message_delta, the stop reason on message_delta.
  messages: {
    scan: (bytes) =>
      earliest([
        finder(bytes, '"message_start"'),
        finder(bytes, '"message_delta"'),
        finder(bytes, '"error"'),
      ]),
    deltas: (bytes, from, to) => count(bytes, '"content_block_delta"', from, to),
  },
  // Gemini's cumulative usage rides on every frame, and a later frame may carry the final count:
  // every frame is decoded.
  native: undefined,
};
