import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import type { NativePartialArg } from "./native-api.js";
import { PartialArgsJsonWriter, parseJsonPath } from "./partial-args-json-writer.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const segment = (key: string | number) =>
  typeof key === "number"
    ? `[${key}]`
    : /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(key)
      ? `.${key}`
      : `['${key.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}']`;

/** The upstream's way of streaming a value: one partialArg per leaf, strings in fragments. */
function partialArgsOf(value: Json, cuts: number[], path = "$", out: NativePartialArg[] = []) {
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) partialArgsOf(v, cuts, path + segment(i), out);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) partialArgsOf(v, cuts, path + segment(k), out);
  } else if (typeof value === "string") {
    const at = cuts.map((c) => c % (value.length + 1)).sort((a, b) => a - b);
    let start = 0;
    for (const end of [...at, value.length]) {
      out.push({ jsonPath: path, stringValue: value.slice(start, end), willContinue: true });
      start = end;
    }
    out.push({ jsonPath: path, stringValue: "" });
  } else if (typeof value === "number") out.push({ jsonPath: path, numberValue: value });
  else if (typeof value === "boolean") out.push({ jsonPath: path, boolValue: value });
  else out.push({ jsonPath: path, nullValue: "NULL_VALUE" });
  return out;
}

/** Containers are written when their first leaf arrives, so an empty one cannot be streamed. */
const hasEmptyContainer = (value: Json): boolean =>
  Array.isArray(value)
    ? value.length === 0 || value.some(hasEmptyContainer)
    : value !== null && typeof value === "object"
      ? Object.keys(value).length === 0 || Object.values(value).some(hasEmptyContainer)
      : false;

describe("PartialArgsJsonWriter", () => {
  it("writes, fragment by fragment, the JSON of any streamed arguments object", () => {
    const args = fc
      .dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), {
        minKeys: 1,
        maxKeys: 4,
      })
      .filter((o) => !hasEmptyContainer(o as Json) && !JSON.stringify(o).includes("__proto__"));
    fc.assert(
      fc.property(args, fc.array(fc.nat(), { maxLength: 3 }), (value, cuts) => {
        const writer = new PartialArgsJsonWriter();
        let text = "";
        for (const arg of partialArgsOf(value as Json, cuts)) text += writer.push(arg);
        text += writer.finish();
        // Compared with the value as JSON carries it: fc.jsonValue may hold -0, which has no JSON form.
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it("writes {} for a call without arguments, and whole args as they are", () => {
    expect(new PartialArgsJsonWriter().finish()).toBe("{}");
    const writer = new PartialArgsJsonWriter();
    expect(writer.whole({ a: [1] }) + writer.finish()).toBe('{"a":[1]}');
  });

  it.each<[string, (string | number)[] | undefined]>([
    ["$", []],
    ["$.a.b", ["a", "b"]],
    ["$.recipe.ingredients[0].name", ["recipe", "ingredients", 0, "name"]],
    ["$['a b'][2]", ["a b", 2]],
    ['$["x"]', ["x"]],
    ["$['it\\'s']", ["it's"]],
    ["a.b", undefined],
    ["$.", undefined],
    ["$[x]", undefined],
  ])("parses the JSON path %s", (path, segments) => {
    expect(parseJsonPath(path)).toEqual(segments);
  });
});
