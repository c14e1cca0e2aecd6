import type { JsonObject } from "@interlingua/core-types";
import type { SchemaSanitizeStep } from "./sanitize-native-schema.js";

/**
 * The JSON Schema keywords Gemini's `responseJsonSchema` documents (structured output); others
 * are refused or ignored upstream, so they are removed here and each removal reported.
 */
export const nativeJsonSchemaKeywords: ReadonlySet<string> = new Set([
  "$id",
  "$defs",
  "$ref",
  "$anchor",
  "type",
  "format",
  "title",
  "description",
  "enum",
  "items",
  "prefixItems",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "anyOf",
  "oneOf",
  "properties",
  "additionalProperties",
  "required",
  "propertyOrdering",
]);

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const escapeKey = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** Keyword -> how its value holds subschemas. */
const NESTING: Readonly<Record<string, "one" | "list" | "map">> = {
  items: "one",
  additionalProperties: "one",
  prefixItems: "list",
  anyOf: "list",
  oneOf: "list",
  properties: "map",
  $defs: "map",
};

function clean(input: unknown, path: string, onStep: (s: SchemaSanitizeStep) => void): unknown {
  if (!isObject(input)) return input;
  const out: Node = {};
  for (const key in input) {
    const value = input[key];
    const at = `${path}/${escapeKey(key)}`;
    if (key === "const" && input.enum === undefined) {
      out.enum = [value];
      onStep({ keyword: key, path: at, message: "const became an enum of one" });
      continue;
    }
    if (!nativeJsonSchemaKeywords.has(key)) {
      onStep({
        keyword: key,
        path: at,
        message: `${key} is not accepted by responseJsonSchema; removed`,
      });
      continue;
    }
    const nesting = NESTING[key];
    if (nesting === "one") out[key] = clean(value, at, onStep);
    else if (nesting === "list" && Array.isArray(value))
      out[key] = value.map((s, i) => clean(s, `${at}/${i}`, onStep));
    else if (nesting === "map" && isObject(value)) {
      const map: Node = {};
      for (const name in value) map[name] = clean(value[name], `${at}/${escapeKey(name)}`, onStep);
      out[key] = map;
    } else out[key] = value;
  }
  return out;
}

/**
 * A JSON Schema cut to what `responseJsonSchema` accepts, at any depth. Pure and idempotent:
 * a schema already inside the subset comes back equal and nothing is reported.
 */
export function sanitizeNativeJsonSchema(
  schema: JsonObject,
  onStep: (step: SchemaSanitizeStep) => void = () => {},
): JsonObject {
  return clean(schema, "", onStep) as JsonObject;
}
