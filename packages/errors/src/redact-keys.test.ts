import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyRedactor } from "./redact-keys.js";

const KEY = "k3-plain-Zq81xYt0";
const redactor = keyRedactor([KEY, "AnotherSecret-998877"]);

describe("keyRedactor", () => {
  it.each([
    [`Incorrect API key provided: ${KEY}.`, "Incorrect API key provided: [redacted]."],
    [`key=${KEY}&alt=sse`, "key=[redacted]&alt=sse"],
    // Masked by the upstream, or quoted in part: any 8+ character slice goes.
    ["provided: k3-plain-****Yt0", "provided: [redacted]****Yt0"],
    ["tail plain-Zq81 here", "tail [redacted] here"],
    [`${KEY}${KEY}`, "[redacted]"],
    ["two: AnotherSecret and Zq81xYt0", "two: [redacted] and [redacted]"],
  ])("%s", (text, redacted) => {
    expect(redactor.redact(text)).toBe(redacted);
  });

  it.each([
    "max_tokens: must be at most 8192",
    "a plain message with plain words",
    "Zq81xYt", // 7 characters of the key: shorter than a slice
  ])("leaves text without an 8-character slice alone: %s", (text) => {
    expect(redactor.redact(text)).toBe(text);
  });

  it("redacts a short key only whole, and ignores keys too short to be secrets", () => {
    const short = keyRedactor(["k1", "abc123"]);
    expect(short.redact("k1 abc123 abc12")).toBe("k1 [redacted] abc12");
    expect(keyRedactor(["k1"]).active).toBe(false);
  });

  it("catches a key split across chunks, holding back only a possible start of one", () => {
    const stream = redactor.stream();
    expect(stream.push('data: {"error":"bad key k3-pl')).toBe('data: {"error":"bad key ');
    expect(stream.push('ain-Zq81xYt0"}\n\n')).toBe('[redacted]"}\n\n');
    expect(stream.push("data: [DONE]\n\n")).toBe("data: [DONE]\n\n");
    expect(stream.end()).toBe("");
  });

  it("never lets an 8-character slice through, however the text is chunked", () => {
    const alphabet = fc.constantFrom(...'k3-plainZq81xYt0 {}":\n'.split(""));
    const pieces = fc.array(
      fc.oneof(
        fc.string({ unit: alphabet, maxLength: 12 }),
        fc
          .tuple(fc.nat(KEY.length - 8), fc.integer({ min: 8, max: KEY.length }))
          .map(([at, length]) => KEY.slice(at, Math.min(KEY.length, at + length))),
      ),
      { maxLength: 8 },
    );
    fc.assert(
      fc.property(pieces, fc.array(fc.nat(200), { maxLength: 6 }), (parts, cuts) => {
        const text = parts.join("");
        const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort(
          (a, b) => a - b,
        );
        const stream = redactor.stream();
        let out = "";
        let from = 0;
        for (const point of points) {
          out += stream.push(text.slice(from, point));
          from = point;
        }
        out += stream.push(text.slice(from)) + stream.end();
        for (let at = 0; at + 8 <= KEY.length; at++)
          expect(out).not.toContain(KEY.slice(at, at + 8));
        // Chunking changes nothing but where two adjacent redactions meet.
        const runs = (s: string) => s.replace(/(\[redacted\])+/g, "[redacted]");
        expect(runs(out)).toBe(runs(redactor.redact(text)));
      }),
      { numRuns: 2000 },
    );
  });

  it("is the identity without keys", () => {
    const none = keyRedactor([]);
    expect(none.active).toBe(false);
    expect(none.redact(KEY)).toBe(KEY);
    expect(none.stream().push(KEY)).toBe(KEY);
  });
});
