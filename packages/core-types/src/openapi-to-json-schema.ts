import type { JsonObject } from "./json-value.js";

/**
 * Gemini's Schema object ("a select subset of an OpenAPI 3.0 schema") -> JSON Schema, for
 * upstreams that read JSON Schema (OpenAI, Anthropic). Native clients write tool parameters and
 * response schemas in that dialect; sent unchanged, OpenAI and Anthropic refuse or misread them.
 *
 * Rewritten, at any depth: upper-case type names (`OBJECT`) become JSON Schema's lower-case ones
 * (`TYPE_UNSPECIFIED` is removed), `nullable: true` becomes a `"null"` member of `type` (or of
 * `anyOf` when there is no type), `nullable: false` goes, `format: "enum"` goes (the `enum` says
 * it), `propertyOrdering` goes (JSON Schema objects are unordered) and `example` becomes
 * `examples: [example]`. Everything else is kept as it is.
 *
 * Pure and idempotent: a schema already in JSON Schema comes back equal, so every render may run
 * it whatever format the schema came from.
 */
export function openApiToJsonSchema(schema: JsonObject): JsonObject {
  return convert(schema) as JsonObject;
}

type Node = Record<string, unknown>;

const isObject = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Keywords whose value is one schema. */
const SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
]);
/** Keywords whose value is an array of schemas. */
const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set([
  "anyOf",
  "oneOf",
  "allOf",
  "prefixItems",
]);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
]);

function convert(input: unknown): unknown {
  if (!isObject(input)) return input;
  const out: Node = {};
  for (const key in input) {
    const value = input[key];
    if (key === "type") out.type = convertType(value);
    else if (key === "nullable" || key === "propertyOrdering") continue;
    else if (key === "format" && value === "enum") continue;
    else if (key === "example") {
      if (input.examples === undefined) out.examples = [value];
    } else if (SCHEMA_KEYWORDS.has(key)) out[key] = convert(value);
    else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) out[key] = value.map(convert);
    else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      const map: Node = {};
      for (const name in value) map[name] = convert(value[name]);
      out[key] = map;
    } else out[key] = value;
  }
  if (out.type === undefined) delete out.type;
  if (input.nullable === true) addNull(out);
  return out;
}

function convertType(value: unknown): unknown {
  if (typeof value === "string") {
    if (value === "TYPE_UNSPECIFIED") return undefined;
    return value.toLowerCase();
  }
  if (Array.isArray(value)) {
    return value.map((t) => (typeof t === "string" ? t.toLowerCase() : t));
  }
  return value;
}

/** `nullable: true` in JSON Schema terms: "null" joins the type (or the anyOf), and the enum. */
function addNull(out: Node): void {
  const type = out.type;
  if (typeof type === "string") {
    if (type !== "null") out.type = [type, "null"];
  } else if (Array.isArray(type)) {
    if (!type.includes("null")) out.type = [...type, "null"];
  } else if (Array.isArray(out.anyOf)) {
    if (!out.anyOf.some((s) => isObject(s) && s.type === "null")) {
      out.anyOf = [...out.anyOf, { type: "null" }];
    }
  }
  // An enum would otherwise still refuse the null the type now allows.
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}

/** Whether a schema holds any of the dialect's own keywords (for a `mapped` warning). */
export function isOpenApiDialect(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  for (const key in schema) {
    const value = schema[key];
    if (key === "nullable" || key === "propertyOrdering" || key === "example") return true;
    if (key === "format" && value === "enum") return true;
    if (key === "type" && typeof value === "string" && value !== value.toLowerCase()) return true;
    if (SCHEMA_KEYWORDS.has(key) && isOpenApiDialect(value)) return true;
    if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value) && value.some(isOpenApiDialect))
      return true;
    if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      for (const name in value) if (isOpenApiDialect(value[name])) return true;
    }
  }
  return false;
}
