import { asArray, asObject, asString, type JsonObject } from "./json.ts";

// Tool-call arguments that satisfy the declared JSON Schema's required properties.
// Optional properties are left out, so a no-argument tool gets `{}`.

const MAX_DEPTH = 8;

type Sampler = (schema: JsonObject, name: string, depth: number) => unknown;

const BY_TYPE: Record<string, Sampler> = {
  object: (schema, _name, depth) => {
    const properties = asObject(schema.properties) ?? {};
    // Built from entries, and looked up as own fields: a property named `__proto__` stays an
    // argument (assignment would make it the prototype), one named `constructor` is not
    // Object's.
    return Object.fromEntries(
      asArray(schema.required)
        .filter((key): key is string => typeof key === "string")
        .map((key) => [
          key,
          sampleValue(Object.hasOwn(properties, key) ? properties[key] : undefined, key, depth + 1),
        ]),
    );
  },
  array: (schema, name, depth) => {
    const minItems = typeof schema.minItems === "number" ? schema.minItems : 1;
    return Array.from({ length: Math.max(1, Math.min(minItems, 4)) }, () =>
      sampleValue(schema.items, name, depth + 1),
    );
  },
  string: (schema, name) => {
    const format = asString(schema.format);
    return (format && FORMATTED[format]) ?? `sample ${name}`;
  },
  integer: (schema) => (typeof schema.minimum === "number" ? Math.ceil(schema.minimum) : 1),
  number: (schema) => (typeof schema.minimum === "number" ? schema.minimum : 1),
  boolean: () => true,
  null: () => null,
};

const FORMATTED: Record<string, string> = {
  "date-time": "2025-01-01T00:00:00Z",
  date: "2025-01-01",
  email: "sample@example.com",
  uri: "https://example.com/",
  uuid: "00000000-0000-4000-8000-000000000000",
};

function declaredType(schema: JsonObject): string {
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  if (typeof type === "string") return type.toLowerCase(); // Gemini's OpenAPI subset writes "OBJECT"
  if (schema.properties) return "object";
  if (schema.items) return "array";
  return "string";
}

export function sampleValue(schema: unknown, name: string, depth = 0): unknown {
  const s = asObject(schema);
  if (depth > MAX_DEPTH) return null;
  if (!s) return `sample ${name}`;
  if ("const" in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if ("default" in s) return s.default;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  const alternative = asArray(s.anyOf ?? s.oneOf)[0];
  if (alternative !== undefined) return sampleValue(alternative, name, depth + 1);
  const sampler = BY_TYPE[declaredType(s)] ?? BY_TYPE.string!;
  return sampler(s, name, depth);
}

/** Arguments for a tool: `{}` when the tool declares no parameters. */
export function sampleArguments(schema: unknown): JsonObject {
  const value = sampleValue(schema ?? { type: "object" }, "value");
  return asObject(value) ?? {};
}
