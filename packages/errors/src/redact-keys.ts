/**
 * Redaction of known secrets (the gateway's configured upstream keys), whatever their shape.
 *
 * The rule. A key is its public prefix (the provider's documented start, `PUBLIC_KEY_PREFIXES`:
 * `sk-proj-`, `sk-ant-api03-`, `AIza`, ...) and its secret part. A run of text that matches the
 * key at some position is redacted, whole, when it holds at least `minSlice` characters of the
 * secret part (the whole secret part when that is shorter); the replacement stands for the run.
 * So the key, and any slice of its secret long enough to matter, never leaves, while a model's
 * answer quoting `sk-proj-`, an example key or a provider's name is left byte for byte: those
 * match no secret characters. Keys whose secret part is shorter than `minKey` are not secrets.
 * Each key is looked for in every spelling an upstream may quote it in: as it is, URL-encoded
 * and JSON-escaped (a key with `+`, `/` or `=` echoed in a URL is otherwise another string).
 * Line breaks (`\n`, `\r\n`, `\r`, or their JSON escapes) inside a run are looked through: an
 * upstream that wraps a long key across lines would otherwise leak the part before the break.
 *
 * Search: the secret part is cut into aligned blocks of half the needed length. A qualifying run
 * holds at least that many secret characters in a row, so it contains a whole block: `indexOf` of
 * the few blocks finds every candidate, which is then grown left and right along the key.
 *
 * Streams give what the whole text gives (adjacent replacements aside): text is sent only once no
 * later character can change how it is redacted (a tail that could still be part of a key is held
 * back), and the last key-length of sent text stays as context, so a run that began in it is
 * still seen whole.
 */
export interface KeyRedactor {
  /** false when there is nothing to redact: callers may skip the work entirely. */
  readonly active: boolean;
  redact(text: string): string;
  /** A redactor for text arriving in chunks, where a key may be split across two chunks. */
  stream(): KeyRedactorStream;
}

export interface KeyRedactorStream {
  /**
   * What may be sent now of this chunk. A tail that could still be part of a key run is held back
   * until the next chunk shows how it continues.
   */
  push(text: string): string;
  /** What was held back, redacted: call once, at the end of the text. */
  end(): string;
}

export interface KeyRedactorOptions {
  /** The fewest secret characters of a key a run must hold to be redacted (default 8). */
  readonly minSlice?: number;
  /** Keys whose secret part is shorter than this are not secrets (default 6). */
  readonly minKey?: number;
  readonly replacement?: string;
  /** The public starts of keys (default `PUBLIC_KEY_PREFIXES`); the longest that fits is used. */
  readonly publicPrefixes?: readonly string[];
}

/**
 * The documented, public starts of provider keys: quoting one reveals nothing about a key, and
 * models do (`OPENAI_API_KEY=sk-proj-...`).
 */
export const PUBLIC_KEY_PREFIXES: readonly string[] = [
  "sk-proj-",
  "sk-svcacct-",
  "sk-admin-",
  "sk-ant-api03-",
  "sk-ant-admin01-",
  "sk-ant-",
  "sk-or-v1-",
  "sk-",
  "AIza",
  "gsk_",
  "xai-",
];

interface Secret {
  readonly key: string;
  /** Where the secret part starts in the key. */
  readonly from: number;
  /** Secret characters a run must hold. */
  readonly need: number;
}

interface BlockHit {
  readonly secret: Secret;
  readonly offset: number;
}

const DEFAULTS = { minSlice: 8, minKey: 6, replacement: "[redacted]" };

type Range = [number, number];

/**
 * Line breaks, real or JSON-escaped, that may wrap a key; a lone trailing backslash may start an
 * escaped one, which the next chunk completes.
 */
const BREAKS = /\r\n|\r|\n|\\r\\n|\\r|\\n|\\$/g;

/** Text with its line breaks taken out, and where each of its characters was. */
interface View {
  readonly text: string;
  /** Index in the original text of the view's character `i` (`i` may be the view's length). */
  at(i: number): number;
}

const identity = (text: string): View => ({ text, at: (i) => i });

const isBreak = (c: number) => c === 10 || c === 13;
const isLetterOfEscape = (c: number) => c === 110 || c === 114; // n, r

/** Where the run of line breaks (real or JSON-escaped) starting at `i` ends. */
function breaksEnd(text: string, i: number): number {
  let j = i;
  for (;;) {
    const c = text.charCodeAt(j);
    if (isBreak(c)) j++;
    else if (c === 92 && isLetterOfEscape(text.charCodeAt(j + 1))) j += 2;
    else if (c === 92 && j + 1 === text.length)
      j++; // a lone "\\" may start an escape
    else return j;
  }
}

/**
 * Whether a line break of `text` may sit inside a key: a key character (or the text's start)
 * before its run of breaks, and a key character or the text's end after it. SSE's frame breaks
 * (after a `}`) never do, so a stream's text is not copied for them. Found with `indexOf`, as
 * the block search is: a pattern over every character cost a stream more than its search.
 */
function mayJoin(text: string, keyChars: ReadonlySet<number>): boolean {
  const joinsAt = (i: number): boolean => {
    const before = text.charCodeAt(i - 1);
    // Inside a run (its start is checked on its own): after a break or an escaped one.
    if (isBreak(before) || (isLetterOfEscape(before) && text.charCodeAt(i - 2) === 92))
      return false;
    if (i > 0 && !keyChars.has(before)) return false;
    const end = breaksEnd(text, i);
    return end > i && (end >= text.length || keyChars.has(text.charCodeAt(end)));
  };
  for (const mark of ["\n", "\r", "\\"]) {
    for (let i = text.indexOf(mark); i !== -1; i = text.indexOf(mark, i + 1)) {
      if (joinsAt(i)) return true;
    }
  }
  return false;
}

/**
 * Where the end of `text` holding at least `count` characters that are not line breaks begins
 * (0 when the text has fewer). Counts low on purpose (a backslash, or `n` / `r` after one, is
 * not counted), so the end it gives holds a key-length of `viewOf`'s characters whatever they are.
 */
function tailStart(text: string, count: number): number {
  let counted = 0;
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || c === 92) continue;
    if ((c === 110 || c === 114) && i > 0 && text.charCodeAt(i - 1) === 92) continue;
    if (++counted >= count) return i;
  }
  return 0;
}

function viewOf(text: string, plain: boolean): View {
  if (plain) return identity(text);
  // Each break as [view index it sits before, original characters skipped up to and with it].
  const skips: [number, number][] = [];
  let skipped = 0;
  const stripped = text.replace(BREAKS, (match: string, offset: number) => {
    skipped += match.length;
    skips.push([offset - skipped + match.length, skipped]);
    return "";
  });
  if (skips.length === 0) return identity(text);
  return {
    text: stripped,
    at(i) {
      let skip = 0;
      for (const [before, total] of skips) {
        if (before > i) break;
        skip = total;
      }
      return i + skip;
    },
  };
}

/** The key run through a block match at `at` (key offset `offset`): as far as text and key agree. */
function grow(text: string, at: number, hit: BlockHit, size: number): Range {
  const key = hit.secret.key;
  let start = at;
  let k = hit.offset;
  while (start > 0 && k > 0 && text.charCodeAt(start - 1) === key.charCodeAt(k - 1)) {
    start--;
    k--;
  }
  let end = at + size;
  let j = hit.offset + size;
  while (end < text.length && j < key.length && text.charCodeAt(end) === key.charCodeAt(j)) {
    end++;
    j++;
  }
  // Secret characters the run holds: those at or after the prefix's end.
  const secret = j - Math.max(k, hit.secret.from);
  return secret >= hit.secret.need ? [start, end] : [-1, -1];
}

const publicPrefixOf = (key: string, prefixes: readonly string[]): number => {
  let longest = 0;
  for (const prefix of prefixes) {
    if (prefix.length > longest && key.startsWith(prefix)) longest = prefix.length;
  }
  return longest;
};

/**
 * A key as it may be quoted: itself, URL-encoded (either hex case: a URL or form an upstream
 * echoes) and JSON-escaped (`\/` too, as some servers write a slash). Only a key with
 * characters such spellings change has more than one.
 */
function spellings(key: string): string[] {
  const out = new Set([key]);
  let encoded: string | undefined;
  try {
    encoded = encodeURIComponent(key);
  } catch {
    // A lone surrogate: no URL carries it.
  }
  if (encoded !== undefined) {
    out.add(encoded);
    out.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
  }
  const json = JSON.stringify(key).slice(1, -1);
  out.add(json);
  out.add(json.replaceAll("/", "\\/"));
  return [...out];
}

export function keyRedactor(
  keys: readonly string[],
  options: KeyRedactorOptions = {},
): KeyRedactor {
  const { minSlice, minKey, replacement } = { ...DEFAULTS, ...options };
  const prefixes = options.publicPrefixes ?? PUBLIC_KEY_PREFIXES;
  const secrets: Secret[] = [];
  for (const key of new Set(keys.flatMap(spellings))) {
    const from = publicPrefixOf(key, prefixes);
    const length = key.length - from;
    if (length < Math.min(minKey, minSlice)) continue;
    secrets.push({ key, from, need: Math.min(minSlice, length) });
  }
  const blocks = new Map<string, BlockHit[]>();
  for (const secret of secrets) {
    const size = Math.max(1, Math.floor(secret.need / 2));
    for (let offset = secret.from; offset + size <= secret.key.length; offset += size) {
      const block = secret.key.slice(offset, offset + size);
      const hits = blocks.get(block);
      if (hits === undefined) blocks.set(block, [{ secret, offset }]);
      else hits.push({ secret, offset });
    }
  }
  const blockList = [...blocks.entries()];
  const longestKey = secrets.reduce((most, s) => Math.max(most, s.key.length), 0);
  const keyChars = new Set<number>();
  for (const { key } of secrets) {
    for (let i = 0; i < key.length; i++) keyChars.add(key.charCodeAt(i));
  }

  /** Redacted ranges of `original`, sorted and merged; line breaks inside a run are its own. */
  const ranges = (original: string, plain: boolean): Range[] => {
    const view = viewOf(original, plain);
    const text = view.text;
    const found: Range[] = [];
    for (const [block, hits] of blockList) {
      for (let at = text.indexOf(block); at !== -1; at = text.indexOf(block, at + 1)) {
        for (const hit of hits) {
          const range = grow(text, at, hit, block.length);
          if (range[0] >= 0) found.push(range);
        }
      }
    }
    if (found.length === 0) return found;
    // Back to the original: a run starts at its first character and ends after its last, so
    // two runs meeting only across a line break stay two.
    const mapped = found.map(([start, end]): Range => [view.at(start), view.at(end - 1) + 1]);
    mapped.sort((a, b) => a[0] - b[0]);
    const merged: Range[] = [mapped[0] as Range];
    for (let i = 1; i < mapped.length; i++) {
      const range = mapped[i] as Range;
      const last = merged[merged.length - 1] as Range;
      if (range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
      else merged.push(range);
    }
    return merged;
  };

  /**
   * `text[from, upTo)` with the ranges (clipped to it) replaced; `continuing`: the text before
   * `from` ended in a replacement, which a range reaching back to `from` only continues.
   */
  const apply = (
    text: string,
    found: readonly Range[],
    from: number,
    upTo: number,
    continuing = false,
  ): string => {
    let out = "";
    let at = from;
    for (const [start, end] of found) {
      if (end < from || (end === from && !continuing) || start >= upTo) continue;
      const continues = continuing && start <= from;
      out += text.slice(at, Math.max(at, start)) + (continues ? "" : replacement);
      at = Math.max(at, Math.min(end, upTo));
    }
    return out + text.slice(at, upTo);
  };

  const redact = (text: string): string => {
    if (secrets.length === 0 || text.length === 0) return text;
    const found = ranges(text, !mayJoin(text, keyChars));
    return found.length === 0 ? text : apply(text, found, 0, text.length);
  };

  /**
   * Characters to hold of `original` (after `from`): its longest tail that is, line breaks aside,
   * a substring of a key, with the breaks after it; it may go on.
   */
  const keyTail = (original: string, from: number, plain: boolean): number => {
    // Only the end can go on into the next chunk: look at its last key-length, breaks aside.
    const start = plain
      ? Math.max(from, original.length - longestKey)
      : Math.max(from, tailStart(original, longestKey));
    const view = viewOf(original.slice(start), plain);
    const text = view.text;
    let held = 0;
    for (let length = 1; length <= Math.min(longestKey, text.length); length++) {
      const tail = text.slice(text.length - length);
      if (!secrets.some((s) => s.key.includes(tail))) break;
      held = length;
    }
    return held === 0 ? 0 : original.length - start - view.at(text.length - held);
  };

  /** The end of `text` holding the last key-length of characters, line breaks aside. */
  const lastKeyLength = (text: string, plain: boolean): string => {
    if (plain) return text.slice(-longestKey);
    const start = tailStart(text, longestKey);
    const view = viewOf(text.slice(start), plain);
    return view.text.length <= longestKey
      ? text.slice(start)
      : text.slice(start + view.at(view.text.length - longestKey));
  };

  const stream = (): KeyRedactorStream => {
    // Sent text (its last key-length, for runs that began in it) and text not yet sent.
    let context = "";
    let carry = "";
    // What was sent ended in a replacement: a run going on from there is not replaced twice.
    let replaced = false;
    const take = (chunk: string, final: boolean): string => {
      const text = context + carry + chunk;
      const plain = !mayJoin(text, keyChars);
      const base = context.length;
      const upTo = final ? text.length : text.length - keyTail(text, base, plain);
      const found = ranges(text, plain);
      const out = apply(text, found, base, upTo, replaced);
      if (upTo > base) replaced = found.some(([start, end]) => start < upTo && end >= upTo);
      context = lastKeyLength(text.slice(0, upTo), plain);
      carry = text.slice(upTo);
      return out;
    };
    return {
      push(chunk) {
        if (secrets.length === 0) return chunk;
        // The usual chunk: nothing carried, no block in it, no key-like tail: sent as it is.
        // One look for a break a key could run through: without one, no view is made.
        const text = context + chunk;
        const plain = carry === "" && !mayJoin(text, keyChars);
        if (carry === "" && keyTail(chunk, 0, plain) === 0 && ranges(text, plain).length === 0) {
          context = lastKeyLength(text, plain);
          if (chunk !== "") replaced = false;
          return chunk;
        }
        return take(chunk, false);
      },
      end() {
        if (secrets.length === 0) return "";
        const rest = take("", true);
        context = "";
        replaced = false;
        return rest;
      },
    };
  };

  return { active: secrets.length > 0, redact, stream };
}
