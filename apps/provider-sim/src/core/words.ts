// Reply text and how it is cut into stream pieces.

const VOCABULARY = [
  "alpha",
  "bravo",
  "charlie",
  "delta",
  "echo",
  "foxtrot",
  "golf",
  "hotel",
  "india",
  "juliett",
  "kilo",
  "lima",
  "mike",
  "november",
  "oscar",
  "papa",
  "quebec",
  "romeo",
  "sierra",
  "tango",
  "uniform",
  "victor",
  "whiskey",
  "xray",
  "yankee",
  "zulu",
];

/** `[[len:N]]`: N words cycling through the NATO alphabet, so the text is predictable. */
export function generatedWords(n: number): string {
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(VOCABULARY[i % VOCABULARY.length]!);
  return words.join(" ");
}

const WORDS_PER_PIECE = 3;

/**
 * Cuts text into stream pieces of up to three words, each carrying its leading whitespace,
 * so the pieces concatenate back to the exact text.
 */
export function splitForStream(text: string): string[] {
  const words = text.match(/\s*\S+/g);
  if (!words) return text ? [text] : [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += WORDS_PER_PIECE) {
    pieces.push(words.slice(i, i + WORDS_PER_PIECE).join(""));
  }
  const covered = pieces.join("").length;
  if (covered < text.length) pieces[pieces.length - 1] += text.slice(covered);
  return pieces;
}

const ARGUMENT_FRAGMENT = 16;

/** Tool-call arguments arrive in fragments that are not valid JSON on their own, like the real APIs. */
export function splitArguments(json: string): string[] {
  const fragments: string[] = [];
  for (let i = 0; i < json.length; i += ARGUMENT_FRAGMENT) {
    fragments.push(json.slice(i, i + ARGUMENT_FRAGMENT));
  }
  return fragments;
}

/** Round-robin merge of per-choice event lists, as providers interleave choices in one stream. */
export function interleave<T>(lists: T[][]): T[] {
  const merged: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let i = 0; i < longest; i++) {
    for (const list of lists) {
      const item = list[i];
      if (item !== undefined) merged.push(item);
    }
  }
  return merged;
}
