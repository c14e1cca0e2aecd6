import { describe, expect, it } from "vitest";
import { isOpenApiDialect, openApiToJsonSchema } from "./openapi-to-json-schema.js";
import { fc, jsonObject } from "./testing.js";

describe("openApiToJsonSchema", () => {
  it("rewrites Gemini's Schema dialect into JSON Schema at every depth", () => {
    const gemini = {
      type: "OBJECT",
      propertyOrdering: ["name", "kind", "tags"],
      properties: {
        name: { type: "STRING", nullable: true, example: "Ada" },
        kind: { type: "STRING", format: "enum", enum: ["a", "b"], nullable: true },
        tags: { type: "ARRAY", items: { type: "INTEGER", format: "int32" } },
        either: { anyOf: [{ type: "NUMBER" }, { type: "BOOLEAN" }], nullable: true },
      },
      required: ["name"],
    };
    expect(openApiToJsonSchema(gemini)).toEqual({
      type: "object",
      properties: {
        name: { type: ["string", "null"], examples: ["Ada"] },
        kind: { type: ["string", "null"], enum: ["a", "b", null] },
        tags: { type: "array", items: { type: "integer", format: "int32" } },
        either: { anyOf: [{ type: "number" }, { type: "boolean" }, { type: "null" }] },
      },
      required: ["name"],
    });
    expect(isOpenApiDialect(gemini)).toBe(true);
  });

  it("leaves JSON Schema as it is (idempotent), including property names that look like keywords", () => {
    const schema = {
      type: "object",
      properties: { type: { type: "string" }, nullable: { type: ["boolean", "null"] } },
      additionalProperties: false,
      $defs: { x: { type: "number", minimum: 0 } },
    };
    expect(openApiToJsonSchema(schema)).toEqual(schema);
    expect(isOpenApiDialect(schema)).toBe(false);
  });

  it("is idempotent on any object", () => {
    fc.assert(
      fc.property(jsonObject, (schema) => {
        const once = openApiToJsonSchema(schema);
        expect(openApiToJsonSchema(once)).toEqual(once);
        expect(isOpenApiDialect(once)).toBe(false);
      }),
    );
  });
});
