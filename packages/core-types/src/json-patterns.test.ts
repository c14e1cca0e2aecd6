import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JSON_INDEX_PATTERN, JSON_STRING_PATTERN } from "./json-patterns.js";

const whole = (source: string) => new RegExp(`^${source}$`);
const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

// Characters that matter to a JSON string (quotes, backslashes, escape letters, control
// characters) mixed with any UTF-16 unit, lone surrogates included.
const unit = fc.oneof(
  fc.constantFrom('"', "\\", "/", "u", "n", "0", "f", "\n", "\u0000", "\u001f", "\u007f"),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
);

describe("JSON patterns", () => {
  it("a string literal matches exactly when JSON.parse reads it as a string", () => {
    const literal = whole(JSON_STRING_PATTERN);
    // Any string JSON.stringify writes; and arbitrary text between quotes, escapes and raw
    // control characters included, which JSON.parse accepts or refuses on its own.
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
        expect(literal.test(JSON.stringify(text))).toBe(true);
        const raw = `"${text}"`;
        expect(literal.test(raw)).toBe(parses(raw) && typeof JSON.parse(raw) === "string");
      }),
      { numRuns: 2000 },
    );
    for (const bad of ['"\\x41"', '"\\u12"', '"a\nb"', '"\\"', '"a"b"', "'a'"]) {
      expect(literal.test(bad), bad).toBe(false);
    }
  });

  it("an index matches the non-negative integers JSON writes, up to nine digits", () => {
    const index = whole(JSON_INDEX_PATTERN);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 999_999_999 }), (n) => {
        expect(index.test(JSON.stringify(n))).toBe(true);
      }),
    );
    for (const bad of ["-1", "01", "1.0", "1e3", "1234567890", ""]) {
      expect(index.test(bad), bad).toBe(false);
    }
  });
});
