// biome-ignore-all lint/suspicious/noExplicitAny: test reads walk parsed JSON
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  hasJsonNumber,
  isExactNumber,
  JsonNumber,
  mayHaveInexactNumbers,
  parseJsonExact,
  parseJsonKeepingNumbers,
  parseWireJson,
  stringifyJsonExact,
  stringifyJsonKeepingNumbers,
} from "./json-exact.js";

// Issue 26, item 3: tool-call arguments keep their numbers exactly across formats.

const CORRUPTED = ["12345678901234567890", "9007199254740993", "1.0000000000000001", "1e400"];
/** Numbers a double holds, but `JSON.stringify` writes with another text. */
const RESPELLED = ["-0", "1.0", "1.50", "-0.0", "1E2", "2e+3", "1e-7", "0.0000001", "1e21", "0.10"];

/** JSON number texts: 64-bit integers, long decimals, exponents, and everyday numbers. */
const numberText = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }).map(String),
  fc
    .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.stringMatching(/^\d{1,25}$/))
    .map(([whole, fraction]) => `${whole}.${fraction}`),
  fc
    .tuple(fc.integer({ min: -99, max: 99 }), fc.integer({ min: -500, max: 500 }))
    .map(([m, e]) => `${m}e${e}`),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom(...RESPELLED),
  fc
    .tuple(fc.integer({ min: -999, max: 999 }), fc.stringMatching(/^\d{0,4}0$/))
    .map(([whole, fraction]) => `${whole}.${fraction}`),
  fc.stringMatching(/^-?0\.0{5,8}[1-9]\d{0,3}$/),
);

/** JSON text (no whitespace) whose numbers come from `numberText`. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    numberText,
    fc.string().map((s) => JSON.stringify(s)),
    fc.constantFrom("true", "false", "null"),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
    fc
      .array(fc.tuple(fc.string(), tie("value")), { maxLength: 4 })
      .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
  ),
})).value;

/** The text as JSON writes it back: keys deduplicated and ordered as an object holds them. */
const rewritten = (text: string) => stringifyJsonExact(parseJsonExact(text));

describe("exact JSON numbers", () => {
  it("the numbers JSON.parse corrupts are kept as written", () => {
    for (const n of CORRUPTED) {
      const text = `{"a":${n},"b":[${n}]}`;
      expect(mayHaveInexactNumbers(text)).toBe(true);
      expect(stringifyJsonExact(parseJsonExact(text))).toBe(text);
      expect(stringifyJsonKeepingNumbers(parseJsonKeepingNumbers(text))).toBe(text);
      expect(isExactNumber(n)).toBe(false);
    }
  });

  it("numbers a double holds and writes back alike stay plain numbers", () => {
    expect(parseJsonExact('{"a":1.5,"b":-1,"c":9007199254740992,"d":0.000001}')).toEqual({
      a: 1.5,
      b: -1,
      c: 9007199254740992,
      d: 0.000001,
    });
    expect(JSON.stringify(new JsonNumber("1e400"))).toBe("null");
  });

  it("numbers JSON.stringify writes with another text (-0, 1.0, 1E2, 0.0000001) keep their text", () => {
    for (const n of RESPELLED) {
      const text = `{"a":${n},"b":[${n}]}`;
      expect(mayHaveInexactNumbers(text)).toBe(true);
      expect(stringifyJsonExact(parseJsonExact(text))).toBe(text);
      expect(stringifyJsonKeepingNumbers(parseJsonKeepingNumbers(text))).toBe(text);
      expect(stringifyJsonKeepingNumbers(parseWireJson(`{"input":${text}}`))).toBe(
        `{"input":${text}}`,
      );
    }
  });

  it("property: every number of the text keeps its value (64-bit integers, long decimals)", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const once = rewritten(text);
        // A second pass changes nothing, and every number's value is the one written.
        expect(rewritten(once)).toBe(once);
        const numbers = (t: string) =>
          (t.match(/(?<![\w"])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g) ?? []).length;
        expect(numbers(once)).toBeLessThanOrEqual(numbers(text));
      }),
      { numRuns: 200 },
    );
  });

  it("property: a number alone or in an array comes back byte for byte", () => {
    fc.assert(
      fc.property(fc.array(numberText, { maxLength: 6 }), (numbers) => {
        const text = `[${numbers.join(",")}]`;
        const back = stringifyJsonExact(parseJsonExact(text));
        const items = parseJsonExact(back) as unknown[];
        items.forEach((item, i) => {
          const written = numbers[i]!;
          if (item instanceof JsonNumber) expect(item.text).toBe(written);
          else expect(JSON.stringify(item)).toBe(written);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("property: agrees with JSON.parse wherever JSON.parse is exact", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonExact(text)).toEqual(JSON.parse(text));
        expect(stringifyJsonExact(parseJsonExact(text))).toBe(text);
      }),
      { numRuns: 200 },
    );
  });

  it("property: a text holding a number a double cannot is always seen as one", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        if (hasJsonNumber(parseJsonExact(text))) expect(mayHaveInexactNumbers(text)).toBe(true);
      }),
      { numRuns: 300 },
    );
    for (const n of [...CORRUPTED, ...RESPELLED]) {
      for (const text of [n, ` ${n}`, `[\n  ${n}\n]`, `{"a" :\t${n}}`]) {
        expect(mayHaveInexactNumbers(text)).toBe(true);
      }
    }
  });

  it("megabytes of base64 in a string: parsed (no regular expression runs out of stack)", () => {
    // Digit-e-digit runs everywhere, as an image's base64 has them; one exact number beside it.
    const image = "A1e5+/9E7z".repeat(1_500_000);
    // A string ending in an escaped backslash, and one holding an escaped quote.
    const quoted = `${JSON.stringify("\\")},"q":${JSON.stringify('\\"')}`;
    const text = `{"n":12345678901234567890,"image":"data:image/png;base64,${image}","s":${quoted}}`;
    const parsed = parseJsonExact(text) as Record<string, unknown>;
    expect(parsed["n"]).toEqual(new JsonNumber("12345678901234567890"));
    expect((parsed["image"] as string).length).toBe(22 + image.length);
    expect([parsed["s"], parsed["q"]]).toEqual(["\\", '\\"']);
    // Without an exact number, digit-e-digit inside the string does not call the exact reader.
    expect(mayHaveInexactNumbers(`{"image":"${image}","n":1}`)).toBe(false);
  });

  it("a string spelling a placeholder stays a string", () => {
    const value = { s: "\u0000#0", n: new JsonNumber("12345678901234567890") };
    expect(stringifyJsonExact(value)).toBe('{"s":"\\u0000#0","n":12345678901234567890}');
  });

  it("not JSON is a SyntaxError; __proto__ is an own key, as JSON.parse makes it", () => {
    for (const bad of ["", "{", "[1,]", "01", '{"a" 1}', "1 2", "tru"]) {
      expect(() => parseJsonExact(bad)).toThrow(SyntaxError);
    }
    const parsed = parseJsonExact('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(["__proto__"]);
  });
});

describe("parseWireJson", () => {
  it("keeps the numbers of tool arguments (input, args) and reads every other one as a double", () => {
    const text =
      '{"seed":12345678901234567890,"content":[{"type":"tool_use","input":{"n":12345678901234567890,"d":[1.0000000000000001]}}],"x":{"args":{"big":1e400}}}';
    const wire = parseWireJson(text) as Record<string, any>;
    expect(wire.seed).toBe(Number("12345678901234567890"));
    expect(wire.content[0].input.n).toEqual(new JsonNumber("12345678901234567890"));
    expect(stringifyJsonKeepingNumbers(wire)).toBe(
      '{"seed":12345678901234567000,"content":[{"type":"tool_use","input":{"n":12345678901234567890,"d":[1.0000000000000001]}}],"x":{"args":{"big":1e400}}}',
    );
  });

  it("reads a body without a tool-argument key as JSON.parse does (1.0 from a Python client)", () => {
    const text = '{"model":"m","temperature":1.0,"top_p":-0,"seed":12345678901234567890}';
    expect(parseWireJson(text)).toStrictEqual(JSON.parse(text));
  });

  it("keeps the numbers of a native functionResponse.response (a tool result as an object)", () => {
    const text =
      '{"parts":[{"functionResponse":{"name":"f","response":{"n":98765432109876543210,"f":1.0}}}]}';
    expect(stringifyJsonKeepingNumbers(parseWireJson(text))).toBe(text);
  });
});
