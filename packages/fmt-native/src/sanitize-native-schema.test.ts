import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import {
  nativeSchemaKeywords,
  type SchemaSanitizeStep,
  sanitizeNativeSchema,
} from "./sanitize-native-schema.js";
import { dirtyJsonSchema } from "./testing.js";

/** Every keyword at every schema position of a sanitised schema (property names are not keywords). */
function keywordsOf(schema: unknown, out: string[] = []): string[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return out;
  const node = schema as Record<string, unknown>;
  for (const key in node) {
    out.push(key);
    const value = node[key];
    if (key === "properties" && typeof value === "object" && value !== null) {
      for (const child of Object.values(value)) keywordsOf(child, out);
    } else if (key === "items") {
      keywordsOf(value, out);
    } else if (key === "anyOf" && Array.isArray(value)) {
      for (const child of value) keywordsOf(child, out);
    }
  }
  return out;
}

const run = (schema: Record<string, unknown>) => {
  const steps: SchemaSanitizeStep[] = [];
  const out = sanitizeNativeSchema(schema, (s) => steps.push(s));
  return { out, keywords: steps.map((s) => s.keyword) };
};

describe("schema sanitising (each rejected key)", () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      "$schema",
      { $schema: "https://json-schema.org/draft/2020-12/schema", type: "object" },
      { type: "object" },
    ],
    ["additionalProperties", { type: "object", additionalProperties: false }, { type: "object" }],
    ["const", { type: "string", const: "on" }, { type: "string", enum: ["on"] }],
    ["exclusiveMinimum", { type: "number", exclusiveMinimum: 0 }, { type: "number", minimum: 0 }],
    [
      "exclusiveMaximum",
      { type: "number", maximum: 10, exclusiveMaximum: 5 },
      { type: "number", maximum: 5 },
    ],
    ["propertyNames", { type: "object", propertyNames: { pattern: "^a" } }, { type: "object" }],
    ["patternProperties", { type: "object", patternProperties: { "^x": {} } }, { type: "object" }],
    ["type", { type: ["string", "null"] }, { type: "string", nullable: true }],
    ["type", { type: ["string", "integer"] }, { anyOf: [{ type: "string" }, { type: "integer" }] }],
    [
      "$ref",
      {
        type: "object",
        properties: { a: { $ref: "#/$defs/A" } },
        $defs: { A: { type: "string" } },
      },
      { type: "object", properties: { a: { type: "string" } } },
    ],
    [
      "definitions",
      {
        properties: { a: { $ref: "#/definitions/A", description: "d" } },
        definitions: { A: { type: "integer" } },
      },
      { properties: { a: { type: "integer", description: "d" } } },
    ],
    [
      "oneOf",
      { oneOf: [{ type: "string" }, { type: "number" }] },
      { anyOf: [{ type: "string" }, { type: "number" }] },
    ],
    [
      "allOf",
      {
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { properties: { b: { type: "number" } } },
        ],
      },
      {
        type: "object",
        properties: { a: { type: "string" }, b: { type: "number" } },
        required: ["a"],
      },
    ],
    ["examples", { type: "string", examples: ["x", "y"] }, { type: "string", example: "x" }],
    ["format", { type: "string", format: "email" }, { type: "string" }],
    ["not", { type: "string", not: { const: "x" } }, { type: "string" }],
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else keywords
    ["if", { if: { type: "string" }, then: {}, else: {} }, {}],
    [
      "uniqueItems",
      { type: "array", items: { type: "string" }, uniqueItems: true },
      { type: "array", items: { type: "string" } },
    ],
    [
      "items",
      { type: "array", items: [{ type: "string" }, { type: "number" }] },
      { type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } },
    ],
    ["enum", { enum: ["a", 1, null] }, { type: "string", enum: ["a", "1"], nullable: true }],
    // Gemini: "enum: only allowed for STRING type". A typed non-string enum keeps its type (calls
    // still carry numbers) and lists its values in the description; a typeless one gets a type.
    ["enum", { enum: ["a", "b"] }, { type: "string", enum: ["a", "b"] }],
    [
      "enum",
      { type: "integer", enum: [1, 2, 3], description: "level" },
      { type: "integer", description: "level Allowed values: 1, 2, 3." },
    ],
    ["enum", { enum: [0.5, 1] }, { type: "number", description: "Allowed values: 0.5, 1." }],
    [
      "enum",
      { type: "boolean", enum: [true] },
      { type: "boolean", description: "Allowed values: true." },
    ],
    ["const", { const: "on" }, { type: "string", enum: ["on"] }],
    ["const", { const: 7 }, { type: "integer", description: "Allowed values: 7." }],
    ["enum", { type: "STRING", enum: [1, 2] }, { type: "STRING", enum: ["1", "2"] }],
    // Gemini: "properties: should be non-empty for OBJECT type"; no property, no required name.
    [
      "properties",
      { type: "object", properties: { a: { type: "object", properties: {} } } },
      { type: "object", properties: { a: { type: "object" } } },
    ],
    [
      "required",
      { type: "object", required: ["a"], additionalProperties: { type: "string" } },
      { type: "object" },
    ],
    ["$id", { $id: "https://x", type: "string" }, { type: "string" }],
    [
      "required",
      { type: "object", properties: { a: {} }, required: ["a", "ghost"] },
      { type: "object", properties: { a: {} }, required: ["a"] },
    ],
  ])("%s", (keyword, input, expected) => {
    const { out, keywords } = run(input);
    expect(out).toEqual(expected);
    expect(keywords).toContain(keyword);
  });

  it("cuts a recursive $ref to an object instead of looping", () => {
    const { out, keywords } = run({
      $defs: { node: { type: "object", properties: { child: { $ref: "#/$defs/node" } } } },
      $ref: "#/$defs/node",
    });
    expect(out).toEqual({
      type: "object",
      // The root is node itself; its child refers back to node and is cut there.
      properties: { child: { type: "object" } },
    });
    expect(keywords).toContain("$ref");
  });

  it("keeps what the upstream accepts, unchanged and unreported", () => {
    const clean = {
      type: "OBJECT",
      description: "d",
      properties: {
        when: { type: "STRING", format: "date-time", nullable: true },
        n: { type: "INTEGER", format: "int64", minimum: 1, maximum: 9, default: 3 },
        tags: {
          type: "ARRAY",
          items: { type: "STRING", enum: ["a", "b"] },
          minItems: 1,
          maxItems: 3,
        },
        additionalProperties: { type: "BOOLEAN", title: "a property with a keyword's name" },
      },
      required: ["when"],
      propertyOrdering: ["when", "n", "tags"],
    };
    expect(run(clean)).toEqual({ out: clean, keywords: [] });
  });

  it("never leaves a rejected keyword at any depth, and is idempotent", () => {
    fc.assert(
      fc.property(dirtyJsonSchema, (schema) => {
        const out = sanitizeNativeSchema(schema);
        for (const key of keywordsOf(out)) expect(nativeSchemaKeywords.has(key)).toBe(true);
        const steps: SchemaSanitizeStep[] = [];
        expect(sanitizeNativeSchema(out, (s) => steps.push(s))).toEqual(out);
        expect(steps).toEqual([]);
      }),
    );
  });
});
