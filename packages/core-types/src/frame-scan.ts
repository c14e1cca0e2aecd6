/**
 * One key a stream reader needs, searched in raw bytes read as Latin-1: a global regular
 * expression, or a literal with a check of where it was found (a short literal with a rare first
 * character, checked in place, is searched much faster than a quoted key, whose first character
 * is the most common one of JSON).
 */
export type FrameSearch =
  | RegExp
  | { readonly literal: string; readonly where: (text: string, at: number) => boolean };

/** The first match of `search` in `text` at or after `from`, -1 when none. */
function matchFrom(text: string, search: FrameSearch, from: number): number {
  if (search instanceof RegExp) {
    search.lastIndex = from;
    return search.exec(text)?.index ?? -1;
  }
  let at = text.indexOf(search.literal, from);
  while (at >= 0 && !search.where(text, at)) at = text.indexOf(search.literal, at + 1);
  return at;
}

/** The first match at or after `from`, remembered: a later `from` at or before it costs nothing. */
function finder(text: string, search: FrameSearch): (from: number) => number {
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

/**
 * A `FrameTap.scan` over `searches`: `needed(from)` is the first match of any at or after `from`
 * (`text.length` when none); calls with growing `from` cost one pass per search in all.
 */
export function scanFrames(
  searches: readonly FrameSearch[],
): (text: string) => (from: number) => number {
  if (searches.length === 1) return (text) => finder(text, searches[0] as FrameSearch);
  return (text) => {
    const finders = searches.map((search) => finder(text, search));
    return (from) => {
      let first = text.length;
      for (const find of finders) first = Math.min(first, find(from));
      return first;
    };
  };
}

/** Whether any of `searches` matches anywhere in `text` (one parsed frame, searched once). */
export function matchesAnyFrameSearch(text: string, searches: readonly FrameSearch[]): boolean {
  for (const search of searches) if (matchFrom(text, search, 0) >= 0) return true;
  return false;
}
