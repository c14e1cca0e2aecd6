import type { FrameTap, SseMessage } from "@interlingua/core-types";

/**
 * One key a chat stream reader needs: a literal with a check of where it was found (a short
 * literal with a rare first character, checked in place, is searched much faster than the quoted
 * key itself: a quoted key starts with the most common character of JSON, and the engine's
 * literal search slows down on every one of them), or a global regular expression.
 */
type Search = { literal: string; where: (text: string, at: number) => boolean } | RegExp;

/**
 * What an OpenAI chunk carries that a reader needs: a finish_reason or usage that is not null
 * (OpenAI writes `"usage":null` on each chunk when asked for the usage chunk; a spaced
 * `"usage": null` is needed), an error (`"error"`, found as `error"` after a quote: a regular
 * expression is much faster here), Groq's usage, or the usage chunk's empty choices. Quoted keys
 * cannot occur inside a JSON string value (their quotes would be escaped there).
 */
const NEEDED: readonly Search[] = [
  /"(?:finish_reason|usage)"(?!:null)/g,
  /(?<=")error"/g,
  { literal: "x_groq", where: (text, at) => text.startsWith('"x_groq"', at - 1) },
  { literal: "[]", where: (text, at) => text.startsWith('"choices":', at - 10) },
];

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

/** Whether any needed key is anywhere in `text` (no finders: one parsed frame, searched once). */
function anyNeeded(text: string): boolean {
  for (const search of NEEDED) if (matchFrom(text, search, 0) >= 0) return true;
  return false;
}

function scanChatFrames(text: string): (from: number) => number {
  const finders = NEEDED.map((search) => finder(text, search));
  return (from) => {
    let first = text.length;
    for (const find of finders) first = Math.min(first, find(from));
    return first;
  };
}

/**
 * The chat stream's frames for a usage-and-finish reader: each chunk is a frame of one `data:`
 * line (`data: {`, the object, not `[DONE]`, is a delta as far as counting goes), and a plain one
 * is a chunk with a delta and none of the needed keys, searched as in raw bytes. Only the compact
 * `"usage":null` OpenAI writes passes, so a provider that writes spaces is simply decoded.
 */
export const chatStreamFrames: FrameTap = {
  scan: scanChatFrames,
  deltaFrameStart: "data: {",
  plain: ({ data }: SseMessage) => data.includes('"delta"') && !anyNeeded(data),
};
