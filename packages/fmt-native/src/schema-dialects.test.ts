import { isOpenApiDialect, openApiToJsonSchema } from "@interlingua/core-types";
import { fc, identifier, text } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { nativeSchemaKeywords, sanitizeNativeSchema } from "./sanitize-native-schema.js";

// Item 3 of issue 20: schemas cross dialects in both directions. A schema in Gemini's Schema
// dialect becomes JSON Schema for OpenAI and Anthropic (core-types `openApiToJsonSchema`), and
// JSON Schema becomes Gemini's Schema object (`sanitizeNativeSchema`); on what both dialects
// express, each direction undoes the other.

type Schema = Record<string, unknown>;
const scalarTypes = ["string", "number", "integer", "boolean"] as const;

/** JSON Schema inside what Gemini's Schema object can say: the round trip must be exact. */
const jsonSchema: fc.Arbitrary<Schema> = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc
      .record(
        {
          type: fc.constantFrom(...scalarTypes),
          nullable: fc.boolean(),
          description: text(12),
          enum: fc.uniqueArray(identifier, { minLength: 1, maxLength: 3 }),
        },
        { requiredKeys: ["type", "nullable"] },
      )
      .map(({ type, nullable, enum: values, ...rest }) => {
        const out: Schema = { type: nullable ? [type, "null"] : type, ...rest };
        // An enum is kept for strings only (Gemini's enums are strings), with null when nullable.
        if (values !== undefined && type === "string")
          out.enum = nullable ? [...values, null] : values;
        return out;
      }),
    fc
      // At least one property: Gemini refuses empty properties, so `{}` reads back as absent.
      .tuple(fc.dictionary(identifier, tie("schema"), { minKeys: 1, maxKeys: 3 }), fc.boolean())
      .map(([properties, requireFirst]) => {
        const out: Schema = { type: "object", properties };
        const first = Object.keys(properties)[0];
        if (requireFirst && first !== undefined) out.required = [first];
        return out;
      }),
    tie("schema").map((items) => ({ type: "array", items })),
    fc
      .array(tie("schema"), { minLength: 2, maxLength: 3 })
      .map((anyOf) => ({ anyOf, description: "either" })),
  ),
})).schema;

const upper = (type: string) => type.toUpperCase();

/** A schema in Gemini's dialect: upper-case types, nullable, format enum, propertyOrdering. */
const geminiSchema: fc.Arbitrary<Schema> = fc.letrec<{ schema: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.record(
      {
        type: fc.constantFrom(...scalarTypes.map(upper)),
        nullable: fc.boolean(),
        description: text(12),
        example: fc.integer(),
      },
      { requiredKeys: ["type"] },
    ),
    fc.record(
      {
        type: fc.constant("STRING"),
        format: fc.constant("enum"),
        enum: fc.uniqueArray(identifier, { minLength: 1, maxLength: 3 }),
        nullable: fc.boolean(),
      },
      { requiredKeys: ["type", "format", "enum"] },
    ),
    fc.dictionary(identifier, tie("schema"), { minKeys: 1, maxKeys: 3 }).map((properties) => ({
      type: "OBJECT",
      properties,
      propertyOrdering: Object.keys(properties),
      required: Object.keys(properties).slice(0, 1),
    })),
    tie("schema").map((items) => ({ type: "ARRAY", items, minItems: 1 })),
    fc.array(tie("schema"), { minLength: 2, maxLength: 3 }).map((anyOf) => ({ anyOf })),
  ),
})).schema;

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** Every node: only JSON Schema type names, none of Gemini's own keywords. */
function assertJsonSchema(node: unknown): void {
  if (typeof node !== "object" || node === null) return;
  if (Array.isArray(node)) {
    for (const item of node) assertJsonSchema(item);
    return;
  }
  const schema = node as Schema;
  for (const key of ["nullable", "propertyOrdering", "example"])
    expect(schema).not.toHaveProperty(key);
  expect(schema.format).not.toBe("enum");
  const types = schema.type === undefined ? [] : [schema.type].flat();
  for (const t of types) expect(JSON_TYPES.has(t as string)).toBe(true);
  for (const key of ["properties", "items", "anyOf"]) {
    const value = schema[key];
    if (key === "properties" && value !== undefined) {
      for (const child of Object.values(value as Schema)) assertJsonSchema(child);
    } else assertJsonSchema(value);
  }
}

/** Gemini's dialect written the way `sanitizeNativeSchema` writes it back. */
function geminiNormal(node: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "type") out.type = (value as string).toLowerCase();
    else if (key === "propertyOrdering" || (key === "format" && value === "enum")) continue;
    else if (key === "nullable") {
      if (value === true) out.nullable = true;
    } else if (key === "properties") {
      out.properties = Object.fromEntries(
        Object.entries(value as Record<string, Schema>).map(([k, v]) => [k, geminiNormal(v)]),
      );
    } else if (key === "items") out.items = geminiNormal(value as Schema);
    else if (key === "anyOf") out.anyOf = (value as Schema[]).map(geminiNormal);
    else out[key] = value;
  }
  return out;
}

function onlyNativeKeywords(node: unknown): boolean {
  if (typeof node !== "object" || node === null) return true;
  if (Array.isArray(node)) return node.every(onlyNativeKeywords);
  const schema = node as Schema;
  return Object.keys(schema).every((key) => {
    if (!nativeSchemaKeywords.has(key)) return false;
    if (key === "properties")
      return Object.values(schema.properties as Schema).every(onlyNativeKeywords);
    if (key === "items" || key === "anyOf") return onlyNativeKeywords(schema[key]);
    return true;
  });
}

describe("schemas across dialects (property tests, both ways)", () => {
  it("Gemini -> JSON Schema: valid JSON Schema, and back to Gemini loses nothing", () => {
    fc.assert(
      fc.property(geminiSchema, (gemini) => {
        const json = openApiToJsonSchema(gemini);
        assertJsonSchema(json);
        expect(isOpenApiDialect(json)).toBe(false);
        const back = sanitizeNativeSchema(json);
        expect(onlyNativeKeywords(back)).toBe(true);
        expect(back).toEqual(geminiNormal(gemini));
      }),
    );
  });

  it("JSON Schema -> Gemini: only Schema-object keywords, and back to JSON Schema is exact", () => {
    fc.assert(
      fc.property(jsonSchema, (json) => {
        const gemini = sanitizeNativeSchema(json);
        expect(onlyNativeKeywords(gemini)).toBe(true);
        expect(openApiToJsonSchema(gemini)).toEqual(json);
      }),
    );
  });

  it("pydantic's optional field (anyOf with a null member) becomes a nullable schema for Gemini", () => {
    const json = {
      type: "object",
      properties: { note: { anyOf: [{ type: "string" }, { type: "null" }], default: null } },
    };
    expect(sanitizeNativeSchema(json)).toEqual({
      type: "object",
      properties: { note: { anyOf: [{ type: "string" }], default: null, nullable: true } },
    });
  });
});
