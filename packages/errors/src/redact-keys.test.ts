import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { keyRedactor, PUBLIC_KEY_PREFIXES } from "./redact-keys.js";

const KEY = "k3-plain-Zq81xYt0";
/** `text` without line breaks, real or JSON-escaped. */
const unwrap = (text: string) => text.replace(/\r\n|\r|\n|\\r\\n|\\r|\\n/g, "");
const redactor = keyRedactor([KEY, "AnotherSecret-998877"]);

/** `text` through a stream redactor, cut at `cuts` (taken modulo its length). */
const streamed = (r: ReturnType<typeof keyRedactor>, text: string, cuts: number[]) => {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const stream = r.stream();
  let out = "";
  let from = 0;
  for (const point of points) {
    out += stream.push(text.slice(from, point));
    from = point;
  }
  return out + stream.push(text.slice(from)) + stream.end();
};
// Chunking changes nothing: the stream sends exactly what the whole text gives.

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
        const out = streamed(redactor, text, cuts);
        for (let at = 0; at + 8 <= KEY.length; at++)
          expect(out).not.toContain(KEY.slice(at, at + 8));
        expect(out).toBe(redactor.redact(text));
      }),
      { numRuns: 2000 },
    );
  });

  it("a run right after a redaction that overlaps it is redacted as in the whole text", () => {
    // The counterexample of the earlier design: "k3-plain" then "-plain-Z", cut after 10.
    const text = "k3-plain-plain-Z";
    expect(streamed(redactor, text, [10])).toBe(redactor.redact(text));
    expect(redactor.redact(text)).toBe("[redacted]");
  });
});

// Issue 26, item 4: the rule has two halves, both property-tested on a key with a public prefix.
describe("keyRedactor: secret slices go, public text stays byte for byte", () => {
  const SECRET = "Zq81xYt0Ab3cD4eF5gH6jK7m";
  const PROJECT_KEY = `sk-proj-${SECRET}`;
  const project = keyRedactor([PROJECT_KEY]);
  const secretSlices = (wrapped: string) => {
    // A key wrapped across lines is still the key.
    const text = unwrap(wrapped);
    const found: string[] = [];
    for (let at = 0; at + 8 <= SECRET.length; at++) {
      if (text.includes(SECRET.slice(at, at + 8))) found.push(SECRET.slice(at, at + 8));
    }
    return found;
  };
  /** Text a model may write: public prefixes, example keys, names, short and long secret slices. */
  const pieces = fc.array(
    fc.oneof(
      fc.constantFrom(
        ...PUBLIC_KEY_PREFIXES,
        "OPENAI_API_KEY=",
        "sk-proj-YOUR_KEY_HERE",
        "sk-ant-api03-xxxxxxxx",
        "OpenAI",
        "Anthropic",
        "Gemini",
        " ",
        "\n",
        '"',
      ),
      fc.string({ unit: fc.constantFrom(..."sk-proj_ZqxYAbcD0123".split("")), maxLength: 10 }),
      fc
        .tuple(fc.nat(SECRET.length - 1), fc.integer({ min: 1, max: SECRET.length }))
        .map(([at, length]) => SECRET.slice(at, at + length)),
      fc.constant(PROJECT_KEY),
    ),
    { maxLength: 8 },
  );

  it("property: no 8-character slice of the secret leaves, whole text or streamed", () => {
    fc.assert(
      fc.property(pieces, fc.array(fc.nat(300), { maxLength: 6 }), (parts, cuts) => {
        const text = parts.join("");
        expect(secretSlices(project.redact(text))).toEqual([]);
        const out = streamed(project, text, cuts);
        expect(secretSlices(out)).toEqual([]);
        expect(out).toBe(project.redact(text));
      }),
      { numRuns: 1000 },
    );
  });

  it("property: text holding no 8-character slice of the secret is left byte for byte", () => {
    fc.assert(
      fc.property(pieces, fc.array(fc.nat(300), { maxLength: 6 }), (parts, cuts) => {
        const text = parts.join("");
        fc.pre(secretSlices(text).length === 0);
        expect(project.redact(text)).toBe(text);
        expect(streamed(project, text, cuts)).toBe(text);
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    "OPENAI_API_KEY=sk-proj-YOUR_KEY_HERE",
    "export ANTHROPIC_API_KEY=sk-ant-api03-...",
    "Use your sk-proj- key from the OpenAI dashboard",
  ])("leaves a quoted public prefix alone: %s", (text) => {
    expect(project.redact(text)).toBe(text);
  });

  it("redacts the key and a slice of its secret, with or without the prefix", () => {
    expect(project.redact(`key: ${PROJECT_KEY}.`)).toBe("key: [redacted].");
    expect(project.redact(`masked sk-proj-${SECRET.slice(0, 8)}****`)).toBe(
      "masked [redacted]****",
    );
    expect(project.redact(`tail ${SECRET.slice(10, 19)}`)).toBe("tail [redacted]");
  });
});

describe("keyRedactor: a key quoted URL-encoded or JSON-escaped", () => {
  // Base64-shaped keys (some providers' bearer tokens) hold `+`, `/` and `=`; an upstream may
  // echo one in a URL (`?key=...`), where no 8-character run of the plain key is left.
  const BASE64_KEY = "AbCd/EfG+hIjK=lMnO/pQ+r";
  const base64 = keyRedactor([BASE64_KEY]);
  const encoded = encodeURIComponent(BASE64_KEY);
  const lowerHex = encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase());

  it.each([
    [`GET /v1?key=${encoded} failed`, "GET /v1?key=[redacted] failed"],
    [`GET /v1?key=${lowerHex} failed`, "GET /v1?key=[redacted] failed"],
    [`{"key":"${BASE64_KEY.replaceAll("/", "\\/")}"}`, '{"key":"[redacted]"}'],
    [`plain ${BASE64_KEY}`, "plain [redacted]"],
  ])("%s", (text, redacted) => {
    expect(base64.redact(text)).toBe(redacted);
  });

  it("streams the encoded spelling split across chunks as the whole text", () => {
    const text = `data: {"url":"https://x/?key=${encoded}"}\n\n`;
    const out = streamed(base64, text, [20, 40, 47]);
    expect(out).toBe('data: {"url":"https://x/?key=[redacted]"}\n\n');
  });

  it("a key no spelling changes is looked for once", () => {
    expect(redactor.redact(`key=${encodeURIComponent(KEY)}`)).toBe("key=[redacted]");
  });
});

describe("keyRedactor without keys", () => {
  it("is the identity without keys", () => {
    const none = keyRedactor([]);
    expect(none.active).toBe(false);
    expect(none.redact(KEY)).toBe(KEY);
    expect(none.stream().push(KEY)).toBe(KEY);
  });
});

describe("keyRedactor: a key wrapped across lines", () => {
  const SECRET = "Zq81xYt0Ab3cD4eF5gH6jK7m";
  const PROJECT_KEY = `sk-proj-${SECRET}`;
  const project = keyRedactor([PROJECT_KEY]);
  const BREAK_SPELLINGS = ["\n", "\r\n", "\r", "\\n", "\\r\\n"];

  it.each(BREAK_SPELLINGS)("redacts both sides of a break (%j) in the key", (lineBreak) => {
    const wrapped = `${PROJECT_KEY.slice(0, 15)}${lineBreak}${PROJECT_KEY.slice(15)}`;
    expect(project.redact(`Incorrect API key provided: ${wrapped}.`)).toBe(
      "Incorrect API key provided: [redacted].",
    );
    // 7 secret characters before the break, 1 after: together a slice.
    expect(project.redact(`x ${SECRET.slice(0, 7)}${lineBreak}${SECRET[7]} y`)).toBe(
      "x [redacted] y",
    );
  });

  it("holds a key start back across a break until the next chunk shows how it goes on", () => {
    const stream = project.stream();
    expect(stream.push('{"error":"bad key sk-proj-Zq81xYt\\')).toBe('{"error":"bad key ');
    expect(stream.push(`n0Ab3cD4eF5gH6jK7m"}`)).toBe('[redacted]"}');
    expect(stream.end()).toBe("");
  });

  it("leaves line breaks between two runs, and text beside a break, alone", () => {
    expect(project.redact(`${SECRET.slice(0, 8)}\n${SECRET.slice(0, 8)}`)).toBe(
      "[redacted]\n[redacted]",
    );
    expect(project.redact("sk-proj-\nhello\nworld")).toBe("sk-proj-\nhello\nworld");
  });

  it("property: no slice of a wrapped key leaves, however it is wrapped and chunked", () => {
    const wrapped = fc
      .tuple(
        fc.nat(SECRET.length - 8),
        fc.integer({ min: 8, max: PROJECT_KEY.length }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...BREAK_SPELLINGS)), {
          minLength: 1,
          maxLength: 3,
        }),
      )
      .map(([at, length, breaks]) => {
        let text = PROJECT_KEY.slice(8 + at).slice(0, length);
        for (const [where, lineBreak] of breaks) {
          const cut = 1 + (where % Math.max(1, text.length - 1));
          text = text.slice(0, cut) + lineBreak + text.slice(cut);
        }
        return text;
      });
    const filler = fc.constantFrom("", " ", "\n", "key: ", '"', "sk-proj-", "x\\n");
    fc.assert(
      fc.property(
        fc.array(fc.oneof(wrapped, filler), { maxLength: 6 }),
        fc.array(fc.nat(300), { maxLength: 6 }),
        (parts, cuts) => {
          const text = parts.join("");
          const whole = project.redact(text);
          for (let at = 0; at + 8 <= SECRET.length; at++) {
            expect(unwrap(whole)).not.toContain(SECRET.slice(at, at + 8));
          }
          expect(streamed(project, text, cuts)).toBe(whole);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
