import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { jsonObjectSchema } from "./json-value.js";
import { zLooseObject, zObject, zStrictObject } from "./zod-object.js";

interface Objects {
  object: typeof z.object;
  looseObject: typeof z.looseObject;
  strictObject: typeof z.strictObject;
}

// One schema of every kind the check walks, and some it leaves to zod; built twice, on our
// objects and on zod/mini's own, which copy everything they parse.
const makeSchema = ({ object, looseObject, strictObject }: Objects) => {
  const block = z.discriminatedUnion("type", [
    object({ type: z.literal("text"), text: z.string().check(z.minLength(1)) }),
    looseObject({ type: z.literal("image"), url: z.string(), detail: z.optional(z.enum(["low"])) }),
  ]);
  return looseObject({
    model: z.string().check(z.minLength(1)),
    n: z.optional(z.int().check(z.positive())),
    k: z.optional(z.int()),
    top: z.optional(z.number().check(z.int()).check(z.gte(0)).check(z.lt(5))),
    name: z.optional(z.string().check(z.minLength(2))),
    temperature: z.nullish(z.number().check(z.lte(2))),
    stream: z.optional(z.boolean()),
    content: z.union([z.string(), z.array(block).check(z.minLength(1))]),
    meta: z.optional(z.record(z.string(), z.string())),
    schema: z.optional(jsonObjectSchema),
    strict: z.optional(strictObject({ a: z.optional(z.literal(1)) })),
    level: z.optional(
      z.pipe(
        z.string(),
        z.transform((s) => s.toLowerCase()),
      ),
    ),
    named: z.optional(
      object({ name: z.string() }).check(z.refine((o) => o.name !== "bad", { message: "not bad" })),
    ),
  });
};
const schema = makeSchema({
  object: zObject,
  looseObject: zLooseObject,
  strictObject: zStrictObject,
});
const copying = makeSchema({
  object: z.object,
  looseObject: z.looseObject,
  strictObject: z.strictObject,
});

const valid = {
  model: "m",
  n: 2,
  temperature: null,
  content: [
    { type: "text", text: "hi" },
    { type: "image", url: "u", extra: [1] },
  ],
  meta: { a: "b" },
  schema: { type: "object" },
  named: { name: "x" },
  other: { kept: true },
};

describe("zObject, zLooseObject, zStrictObject", () => {
  it("give a body that parses unchanged back as it is, without a copy", () => {
    const result = schema.safeParse(valid);
    expect(result.success).toBe(true);
    expect(result.data).toBe(valid);
    expect(result).toEqual(copying.safeParse(valid));
  });

  it("give zod's copy when zod changes the body: a stripped key, a transform", () => {
    const stripped = { ...valid, content: [{ type: "text", text: "hi", junk: 1 }] };
    expect(schema.safeParse(stripped).data).not.toBe(stripped);
    expect(schema.safeParse(stripped)).toEqual(copying.safeParse(stripped));
    const lowered = { ...valid, level: "HIGH" };
    expect(schema.safeParse(lowered)).toEqual({ success: true, data: { ...valid, level: "high" } });
  });

  it("give zod's own error for an invalid body", () => {
    for (const bad of [
      { ...valid, n: 1.5 },
      { ...valid, k: 1.5 },
      { ...valid, top: 5 },
      { ...valid, name: "😀" },
      { ...valid, content: [] },
      { ...valid, content: [{ type: "video" }] },
      { ...valid, strict: { b: 1 } },
      { ...valid, named: { name: "bad" } },
      { ...valid, model: undefined },
      "text",
      null,
    ]) {
      const result = schema.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual(copying.safeParse(bad).error?.issues);
    }
  });

  it("agree with zod/mini's objects on any JSON value near the schema's shape", () => {
    const anyJson = fc.jsonValue({ maxDepth: 3 });
    const nearBlock = fc.oneof(
      fc.record(
        { type: fc.constantFrom("text", "image", "x"), text: fc.string(), url: anyJson },
        { requiredKeys: ["type"] },
      ),
      anyJson,
    );
    const nearBody = fc.record(
      {
        model: fc.oneof(fc.string(), anyJson),
        n: fc.oneof(fc.integer({ min: -2, max: 3 }), fc.double(), anyJson),
        k: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53)),
        top: fc.oneof(fc.integer({ min: -1, max: 6 }), fc.double({ min: -1, max: 6 })),
        name: fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("😀", "a😀", "ab")),
        temperature: fc.oneof(fc.constant(null), fc.double({ min: 0, max: 3 })),
        stream: fc.oneof(fc.boolean(), anyJson),
        content: fc.oneof(fc.string(), fc.array(nearBlock, { maxLength: 3 }), anyJson),
        meta: fc.oneof(fc.dictionary(fc.string(), fc.string()), anyJson),
        schema: anyJson,
        strict: fc.oneof(fc.constant({ a: 1 }), anyJson),
        level: fc.string(),
        named: fc.oneof(fc.record({ name: fc.constantFrom("bad", "ok") }), anyJson),
        extra: anyJson,
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(nearBody, (body) => {
        expect(schema.safeParse(body)).toEqual(copying.safeParse(body));
      }),
      { numRuns: 1000 },
    );
  });

  it("leave an own __proto__ key and a class instance to zod", () => {
    const proto = JSON.parse('{"model":"m","content":"c","__proto__":{"x":1}}');
    expect(schema.safeParse(proto).data).not.toBe(proto);
    expect(schema.safeParse(proto)).toEqual(copying.safeParse(proto));
    class Body {
      model = "m";
      content = "c";
    }
    const instance = new Body();
    expect(schema.safeParse(instance).data).not.toBe(instance);
  });

  it("run an object's own refinement once per parse, as zod/mini's objects do", () => {
    let calls = 0;
    const refined = zObject({ a: z.string() }).check(z.refine(() => ++calls > 0));
    expect(refined.safeParse({ a: "x" }).success).toBe(true);
    expect(calls).toBe(1);
  });
});
