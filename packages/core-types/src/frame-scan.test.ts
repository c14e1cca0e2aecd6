import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FrameSearch, matchesAnyFrameSearch, scanFrames } from "./frame-scan.js";

const SEARCHES: readonly FrameSearch[] = [
  /"(?:usage|stop)"/g,
  { literal: "x_", where: (text, at) => text.startsWith('"x_', at - 1) },
];

/** The oracle: every match of every search, found the slow way. */
function naiveFirst(text: string, from: number): number {
  let first = text.length;
  for (let at = from; at < text.length; at++) {
    const rest = text.slice(at);
    if (/^"(?:usage|stop)"/.test(rest) || (rest.startsWith("x_") && text[at - 1] === '"')) {
      first = at;
      break;
    }
  }
  return first;
}

const text = fc
  .array(fc.constantFrom('"usage"', '"stop"', '"x_groq"', "x_", "usage", "a", '"', " "), {
    maxLength: 30,
  })
  .map((parts) => parts.join(""));

describe("scanFrames", () => {
  it("finds the first match of any search at or after each growing offset", () => {
    fc.assert(
      fc.property(text, fc.array(fc.nat(40), { maxLength: 8 }), (value, offsets) => {
        const needed = scanFrames(SEARCHES)(value);
        for (const from of [...offsets].sort((a, b) => a - b)) {
          expect(needed(Math.min(from, value.length))).toBe(
            naiveFirst(value, Math.min(from, value.length)),
          );
        }
      }),
    );
  });

  it("one search alone, and matchesAnyFrameSearch agrees with the scan from 0", () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(scanFrames([SEARCHES[0] as FrameSearch])(value)(0)).toBe(
          value.search(/"(?:usage|stop)"/) === -1 ? value.length : value.search(/"(?:usage|stop)"/),
        );
        expect(matchesAnyFrameSearch(value, SEARCHES)).toBe(naiveFirst(value, 0) < value.length);
      }),
    );
  });
});
