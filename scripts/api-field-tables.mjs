// Prints the field tables of the gateway's API as markdown, generated from the zod schemas the
// gateway validates with (through its OpenAPI document), to check docs/api-reference.md against.
// Usage (Node >= 22.18 for the TypeScript import; the repository's own node is 24):
//   pnpm exec node scripts/api-field-tables.mjs [path-prefix]
import { apiRoutes, openApiDocument } from "../apps/gateway/src/http/openapi/openapi-document.ts";

const prefix = process.argv[2] ?? "";
const document = openApiDocument(apiRoutes(undefined));

/** A JSON Schema's type in a few words: unions joined with "or", enums and consts listed. */
function typeOf(schema) {
  if (schema === undefined || schema === true || Object.keys(schema).length === 0) return "any";
  if (schema.$ref) return schema.$ref.replace("#/$defs/", "");
  if ("const" in schema) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" \\| ");
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return [...new Set(union.map(typeOf))].join(" or ");
  if (schema.type === "array") return `array of ${typeOf(schema.items)}`;
  if (Array.isArray(schema.type)) return schema.type.join(" or ");
  return schema.type ?? "any";
}

/** The limits a schema states: ranges, lengths, defaults, formats. */
function constraintsOf(schema) {
  if (typeof schema !== "object" || schema === null) return "";
  const words = {
    minimum: ">=",
    exclusiveMinimum: ">",
    maximum: "<=",
    exclusiveMaximum: "<",
    minLength: "min length",
    maxLength: "max length",
    minItems: "min items",
    maxItems: "max items",
    format: "format",
    default: "default",
  };
  return (
    Object.entries(words)
      // zod states every int's safe-integer range; only a narrower bound says something.
      .filter(([key]) => key in schema && Math.abs(schema[key]) !== Number.MAX_SAFE_INTEGER)
      .map(([key, word]) => `${word} ${JSON.stringify(schema[key])}`)
      .join(", ")
  );
}

/** One row per field, nested objects and arrays of objects flattened as `a.b` and `a[].b`. */
function rows(schema, name = "", depth = 0) {
  if (typeof schema !== "object" || schema === null) return [];
  const object = schema.type === "array" ? schema.items : schema;
  if (typeof object !== "object" || object === null || !object.properties || depth > 3) return [];
  const required = new Set(object.required ?? []);
  return Object.entries(object.properties).flatMap(([key, field]) => {
    const path = name === "" ? key : `${name}${schema.type === "array" ? "[]" : ""}.${key}`;
    const row = `| ${path} | ${typeOf(field)} | ${required.has(key) ? "yes" : "no"} | ${constraintsOf(field)} |`;
    return [row, ...rows(field, path, depth + 1)];
  });
}

function table(title, schema) {
  const variants = (schema.anyOf ?? schema.oneOf ?? []).flatMap((variant, index) =>
    table(`${title}, variant ${index + 1}`, variant),
  );
  const body = rows(schema);
  if (body.length === 0) return variants;
  return [
    `${title}:`,
    "",
    "| Field | Type | Required | Constraints |",
    "|---|---|---|---|",
    ...body,
    "",
    ...variants,
  ];
}

const out = [];
for (const [path, operations] of Object.entries(document.paths)) {
  if (!path.startsWith(prefix)) continue;
  for (const [method, operation] of Object.entries(operations)) {
    const content = operation.requestBody?.content ?? {};
    const [, request] = Object.entries(content)[0] ?? [];
    const reply = operation.responses?.["200"]?.content?.["application/json"]?.schema;
    const query = (operation.parameters ?? []).filter((p) => p.in === "query");
    const sections = [
      ...(query.length === 0
        ? []
        : table("Query", {
            type: "object",
            properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
            required: query.filter((p) => p.required).map((p) => p.name),
          })),
      ...(request?.schema ? table("Request body", request.schema) : []),
      ...(reply ? table("Reply (200)", reply) : []),
    ];
    if (sections.length === 0) continue;
    out.push(`### ${method.toUpperCase()} ${path}`, "", ...sections);
  }
}
process.stdout.write(`${out.join("\n")}\n`);
