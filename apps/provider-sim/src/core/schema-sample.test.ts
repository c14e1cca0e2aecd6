import { describe, expect, it } from "vitest";
import { sampleArguments } from "./schema-sample.ts";

describe("sampleArguments", () => {
  it("fills required properties only", () => {
    const schema = {
      type: "object",
      properties: {
        city: { type: "string" },
        unit: { type: "string", enum: ["celsius", "fahrenheit"] },
        days: { type: "integer", minimum: 3 },
        when: { type: "string", format: "date" },
        tags: { type: "array", items: { type: "string" } },
        where: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"] },
        optional: { type: "string" },
      },
      required: ["city", "unit", "days", "when", "tags", "where"],
    };
    expect(sampleArguments(schema)).toEqual({
      city: "sample city",
      unit: "celsius",
      days: 3,
      when: "2025-01-01",
      tags: ["sample tags"],
      where: { lat: 1 },
    });
  });

  it("keeps properties named __proto__ or constructor as arguments", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]}},"required":["__proto__","constructor"]}',
    );
    const args = sampleArguments(schema) as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(JSON.parse(JSON.stringify(args))).toEqual(
      JSON.parse('{"__proto__":{"a":1},"constructor":"sample constructor"}'),
    );
  });

  it("gives {} to tools without parameters", () => {
    expect(sampleArguments(undefined)).toEqual({});
    expect(sampleArguments({ type: "object", properties: {} })).toEqual({});
  });

  it("reads Gemini's upper-case types and nullable unions", () => {
    expect(
      sampleArguments({
        type: "OBJECT",
        properties: { q: { type: ["string", "null"] } },
        required: ["q"],
      }),
    ).toEqual({ q: "sample q" });
  });
});
