import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findTooDeep, jsonTextDepth, MAX_JSON_DEPTH } from "./json-depth.js";

/** `n` levels of `{"a": ...}` around 1, built as text (a recursive stringify would overflow). */
const nestedText = (n: number, open = '{"a":', close = "}") =>
  open.repeat(n) + "1" + close.repeat(n);

/** The depth of a parsed value, by the definition (recursive: only for small test values). */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

const plainJson = fc
  .jsonValue({ maxDepth: 12 })
  .filter((value) => !/"[[{]/.test(JSON.stringify(value)));

describe("findTooDeep", () => {
  it("accepts exactly MAX_JSON_DEPTH levels and names the path of the first level past it", () => {
    expect(findTooDeep(JSON.parse(nestedText(MAX_JSON_DEPTH)))).toBeUndefined();
    const path = findTooDeep(JSON.parse(nestedText(MAX_JSON_DEPTH + 1)));
    expect(path).toBe(Array(MAX_JSON_DEPTH).fill("a").join("."));
  });

  it("measures bodies of any depth without recursion (100,000 levels of arrays)", () => {
    const deep = JSON.parse(nestedText(100_000, "[", "]"));
    expect(findTooDeep(deep)).toBe("[0]".repeat(MAX_JSON_DEPTH));
  });

  it("counts JSON held in strings (tool-call arguments) at the depth they sit at", () => {
    const body = {
      messages: [{ tool_calls: [{ function: { arguments: nestedText(MAX_JSON_DEPTH) } }] }],
    };
    expect(findTooDeep(body)).toBe("messages[0].tool_calls[0].function.arguments");
    const shallow = { messages: [{ tool_calls: [{ function: { arguments: nestedText(10) } }] }] };
    expect(findTooDeep(shallow)).toBeUndefined();
    // Brackets inside string literals are text, not nesting.
    expect(findTooDeep({ a: JSON.stringify({ s: "[".repeat(1000) }) })).toBeUndefined();
  });

  it("agrees with the recursive definition on arbitrary JSON", () => {
    fc.assert(
      // Strings starting like JSON count as nesting by design (above), so none are generated.
      fc.property(plainJson, fc.integer({ min: 1, max: 14 }), (value, max) => {
        const tooDeep = depthOf(value) > max;
        expect(findTooDeep(value, max) !== undefined).toBe(tooDeep);
      }),
    );
  });
});

describe("jsonTextDepth", () => {
  it("is the nesting JSON.parse would build, capped past the limit", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), (value) => {
        expect(jsonTextDepth(JSON.stringify(value), 50)).toBe(depthOf(value));
      }),
    );
    expect(jsonTextDepth(nestedText(1000), 64)).toBe(65);
  });
});
