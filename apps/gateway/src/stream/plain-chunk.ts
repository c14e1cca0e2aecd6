import type { SameFormat } from "../upstream/upstream-protocols.ts";

/**
 * Where, in a run of same-format upstream bytes, the tap finds something it needs (usage, a
 * finish reason, an error): everything before the frame that holds it is plain content deltas,
 * and goes by unparsed (see `sseTap`). Found by searching for quoted keys, which cannot occur
 * inside a JSON string value (their quotes would be escaped there); a form a test does not
 * recognise is always called needed, so a frame is never skipped wrongly, only parsed needlessly.
 *
 * The bytes are searched as their Latin-1 text: one character per byte, so offsets are byte
 * offsets, and no byte of a multi-byte UTF-8 character matches an ASCII key.
 */
export interface PlainChunkTest {
  /**
   * A scan of `text` (bytes as Latin-1): `needed(from)` is the offset of the first needed key at
   * or after `from` (`text.length` when there is none). Calls with growing `from` cost one pass
   * over the text in all, however many needed frames there are.
   */
  scan(text: string): (from: number) => number;
  /**
   * The content-delta frames among the whole frames of `text` from `from` (a frame start) to
   * `to`, whose frames end with `separator`.
   */
  deltas(text: string, from: number, to: number, separator: string): number;
}

/**
 * One needed key: a literal with a check of where it was found (a short literal with a rare first
 * character, checked in place, is searched much faster than the quoted key itself), or a global
 * regular expression. Search speed matters: a quoted key starts with the most common character of
 * JSON, and the engine's literal search slows down on every one of them.
 */
export type Search = { literal: string; where: (text: string, at: number) => boolean } | RegExp;

/** The first match of `search` in `text` at or after `from`, -1 when none. */
function matchFrom(text: string, search: Search, from: number): number {
  if (search instanceof RegExp) {
    search.lastIndex = from;
    return search.exec(text)?.index ?? -1;
  }
  let at = text.indexOf(search.literal, from);
  while (at >= 0 && !search.where(text, at)) at = text.indexOf(search.literal, at + 1);
  return at;
}

/** Whether any of `searches` matches anywhere in `text`. */
export function matchesAny(text: string, searches: readonly Search[]): boolean {
  for (const search of searches) if (matchFrom(text, search, 0) >= 0) return true;
  return false;
}

/**
 * The first match of `search` at or after `from`, remembering its last answer: a later, larger
 * `from` at or before it gets it again without a search.
 */
function finder(text: string, search: Search): (from: number) => number {
  let found = -1;
  let done = false;
  return (from) => {
    if (done) return text.length;
    if (found >= from) return found;
    const at = matchFrom(text, search, from);
    if (at < 0) {
      done = true;
      return text.length;
    }
    found = at;
    return at;
  };
}

function scanner(searches: readonly Search[]): PlainChunkTest["scan"] {
  return (text) => {
    const finders = searches.map((search) => finder(text, search));
    return (from) => {
      let first = text.length;
      for (const find of finders) first = Math.min(first, find(from));
      return first;
    };
  };
}

/** Frames in `text` between `from` (a frame start) and `to` that start with `marker`. */
function framesStartingWith(
  text: string,
  from: number,
  to: number,
  separator: string,
  marker: string,
): number {
  let n = text.startsWith(marker, from) ? 1 : 0;
  const needle = separator + marker;
  // A frame that starts before `to` has its separator end before it.
  for (let at = text.indexOf(needle, from); at >= 0 && at + separator.length < to; ) {
    n++;
    at = text.indexOf(needle, at + needle.length);
  }
  return n;
}

/** `"error"`, found as `error"` after a quote (a regular expression: much faster here). */
const ERROR_KEY = /(?<=")error"/g;

/**
 * What an OpenAI chunk carries that the tap needs: a finish_reason or usage that is not null
 * (OpenAI writes `"usage":null` on each chunk when asked for the usage chunk; a spaced
 * `"usage": null` is needed), an error, Groq's usage, or the usage chunk's empty choices.
 */
export const CHAT_NEEDED: readonly Search[] = [
  /"(?:finish_reason|usage)"(?!:null)/g,
  ERROR_KEY,
  { literal: "x_groq", where: (text, at) => text.startsWith('"x_groq"', at - 1) },
  { literal: "[]", where: (text, at) => text.startsWith('"choices":', at - 10) },
];

export const PLAIN_CHUNK: Record<SameFormat, PlainChunkTest | undefined> = {
  chat: {
    scan: scanner(CHAT_NEEDED),
    // Each chunk is a frame of one `data:` line (the watch's sample averages per frame); the
    // object, not `[DONE]`.
    deltas: (text, from, to, separator) => framesStartingWith(text, from, to, separator, "data: {"),
  },
  // Usage rides on message_start and message_delta, the stop reason on message_delta.
  messages: {
    // One expression for both: its single pass over a chunk was twice as fast as the two searches.
    scan: scanner([/"(?:message_(?:start|delta)|error)"/g]),
    // Anthropic names each event on the line that opens its frame.
    deltas: (text, from, to, separator) =>
      framesStartingWith(text, from, to, separator, "event: content_block_delta"),
  },
  // Gemini's cumulative usage rides on every frame, and a later frame may carry the final count:
  // every frame is decoded.
  native: undefined,
};
