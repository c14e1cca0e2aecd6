/**
 * Redaction of known secrets (the gateway's configured upstream keys), whatever their shape:
 * every occurrence of a key, and of any slice of it at least `minSlice` characters long, is
 * replaced. Pattern redaction (`redactSecrets`) only knows keys shaped like `sk-…`; this one
 * knows the keys themselves.
 *
 * Search: each key is cut into aligned blocks of `minSlice / 2` characters. Any slice of
 * `minSlice` or more characters contains a whole block, so `indexOf` of the few blocks finds
 * every candidate, which is then grown left and right along the key and kept when long enough.
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
   * What may be sent now of this chunk. A tail that could be the start of a key slice (at most
   * `minSlice - 1` characters), or a slice that reaches the end and may go on, is held back
   * until the next chunk shows how it continues.
   */
  push(text: string): string;
  /** What was held back, redacted: call once, at the end of the text. */
  end(): string;
}

export interface KeyRedactorOptions {
  /** The shortest slice of a key that is redacted (default 8). */
  readonly minSlice?: number;
  /** Keys shorter than `minSlice` are redacted whole, down to this length (default 6). */
  readonly minKey?: number;
  readonly replacement?: string;
}

interface BlockHit {
  readonly key: string;
  readonly offset: number;
}

const DEFAULTS = { minSlice: 8, minKey: 6, replacement: "[redacted]" };

/** Extends a block match at `at` (key offset `offset`) to the longest run shared with the key. */
function grow(text: string, at: number, hit: BlockHit, size: number): [number, number] {
  let start = at;
  let k = hit.offset;
  while (start > 0 && k > 0 && text.charCodeAt(start - 1) === hit.key.charCodeAt(k - 1)) {
    start--;
    k--;
  }
  let end = at + size;
  let j = hit.offset + size;
  while (
    end < text.length &&
    j < hit.key.length &&
    text.charCodeAt(end) === hit.key.charCodeAt(j)
  ) {
    end++;
    j++;
  }
  return [start, end];
}

export function keyRedactor(
  keys: readonly string[],
  options: KeyRedactorOptions = {},
): KeyRedactor {
  const { minSlice, minKey, replacement } = { ...DEFAULTS, ...options };
  const used = [...new Set(keys)].filter((key) => key.length >= Math.min(minKey, minSlice));
  // A key shorter than a block still has one block: itself (matched whole).
  const size = Math.max(1, Math.floor(minSlice / 2));
  const blocks = new Map<string, BlockHit[]>();
  const addBlock = (block: string, hit: BlockHit) => {
    const hits = blocks.get(block);
    if (hits === undefined) blocks.set(block, [hit]);
    else hits.push(hit);
  };
  for (const key of used) {
    const width = Math.min(size, key.length);
    for (let offset = 0; offset + width <= key.length; offset += width) {
      addBlock(key.slice(offset, offset + width), { key, offset });
    }
  }
  const blockList = [...blocks.entries()];
  // Every substring of a key shorter than minSlice: the tails a stream holds back.
  const fragments = new Set<string>();
  for (const key of used) {
    for (let length = 1; length < minSlice; length++) {
      for (let at = 0; at + length <= key.length; at++) fragments.add(key.slice(at, at + length));
    }
  }

  /** Redacted ranges of `text`, sorted and merged. */
  const ranges = (text: string): [number, number][] => {
    const found: [number, number][] = [];
    for (const [block, hits] of blockList) {
      const width = block.length;
      for (let at = text.indexOf(block); at !== -1; at = text.indexOf(block, at + 1)) {
        for (const hit of hits) {
          const [start, end] = grow(text, at, hit, width);
          const whole = end - start === hit.key.length;
          if (end - start >= minSlice || whole) found.push([start, end]);
        }
      }
    }
    if (found.length < 2) return found;
    found.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [found[0] as [number, number]];
    for (const range of found.slice(1)) {
      const last = merged[merged.length - 1] as [number, number];
      if (range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
      else merged.push(range);
    }
    return merged;
  };

  const apply = (text: string, found: readonly [number, number][], upTo: number): string => {
    if (found.length === 0) return upTo === text.length ? text : text.slice(0, upTo);
    let out = "";
    let from = 0;
    for (const [start, end] of found) {
      out += text.slice(from, start) + replacement;
      from = end;
    }
    return out + text.slice(from, Math.max(from, upTo));
  };

  const redact = (text: string): string => {
    if (used.length === 0 || text.length === 0) return text;
    return apply(text, ranges(text), text.length);
  };

  const stream = (): KeyRedactorStream => {
    let carry = "";
    return {
      push(chunk) {
        if (used.length === 0) return chunk;
        const text = carry + chunk;
        const found = ranges(text);
        const last = found[found.length - 1];
        let held = 0;
        if (last !== undefined && last[1] === text.length) {
          // A slice reaching the end may go on in the next chunk: redact it once, whole.
          held = text.length - last[0];
          found.pop();
        } else {
          const free = last === undefined ? 0 : last[1];
          for (let length = Math.min(minSlice - 1, text.length - free); length > 0; length--) {
            if (fragments.has(text.slice(text.length - length))) {
              held = length;
              break;
            }
          }
        }
        carry = held === 0 ? "" : text.slice(text.length - held);
        return apply(text, found, text.length - held);
      },
      end() {
        const rest = redact(carry);
        carry = "";
        return rest;
      },
    };
  };

  return { active: used.length > 0, redact, stream };
}
