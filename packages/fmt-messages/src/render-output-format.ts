import {
  isOpenApiDialect,
  type JsonObject,
  openApiToJsonSchema,
  type ResponseFormat,
  type Warning,
} from "@interlingua/core-types";
import type { MessagesRequestWire } from "./messages-api.js";

type Warn = (type: Warning["type"], feature: string, message: string) => void;

/** What a json-object request asks of Anthropic, which has no schema-less JSON mode. */
export const MESSAGES_JSON_OBJECT_INSTRUCTION =
  "Respond with one JSON object and nothing else: no prose, no code fences.";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Anthropic's structured outputs require `additionalProperties: false` on every object schema;
 * objects that say nothing about it are closed (properties they do not list were never
 * described anyway). Returns whether anything was closed.
 */
function closeObjects(node: unknown): boolean {
  if (Array.isArray(node)) return node.map(closeObjects).some(Boolean);
  if (!isObject(node)) return false;
  let closed = false;
  const type = node.type;
  const isObjectSchema =
    type === "object" ||
    (Array.isArray(type) && type.includes("object")) ||
    isObject(node.properties);
  if (isObjectSchema && node.additionalProperties === undefined) {
    node.additionalProperties = false;
    closed = true;
  }
  for (const key of ["properties", "$defs", "definitions"]) {
    const map = node[key];
    if (isObject(map)) for (const name in map) closed = closeObjects(map[name]) || closed;
  }
  for (const key of ["items", "additionalProperties", "anyOf", "allOf", "oneOf", "prefixItems"]) {
    closed = closeObjects(node[key]) || closed;
  }
  return closed;
}

/**
 * A chat or responses `response_format` toward Anthropic. A JSON Schema becomes Anthropic's
 * structured output, `output_config.format: {type: "json_schema", schema}` (generally available,
 * no beta header); the reply is a text block holding the JSON, which every client format carries
 * back as its own text. A schema-less JSON object has no structured-output form: it is asked for
 * in the system prompt (`mapped`). `text` is Anthropic's default.
 */
export function renderOutputFormat(
  format: ResponseFormat,
  out: MessagesRequestWire,
  extras: Record<string, unknown> | undefined,
  warn: Warn,
): void {
  if (format.type === "text") return;
  if (format.type === "json-object") {
    const instruction = { type: "text" as const, text: MESSAGES_JSON_OBJECT_INSTRUCTION };
    out.system =
      out.system === undefined
        ? [instruction]
        : typeof out.system === "string"
          ? [{ type: "text", text: out.system }, instruction]
          : [...out.system, instruction];
    warn(
      "mapped",
      "responseFormat",
      "Anthropic has no schema-less JSON mode; a JSON object is asked for in the system prompt",
    );
    return;
  }
  let schema: JsonObject = structuredClone(format.schema);
  if (isOpenApiDialect(schema)) {
    schema = openApiToJsonSchema(schema);
    warn("mapped", "responseFormat.schema", "Gemini's schema dialect was converted to JSON Schema");
  }
  if (closeObjects(schema)) {
    warn(
      "mapped",
      "responseFormat.schema",
      "Anthropic requires additionalProperties: false on every object; it was added where unset",
    );
  }
  if (format.name !== undefined || format.strict !== undefined) {
    warn(
      "mapped",
      "responseFormat",
      "Anthropic's json_schema output takes no name or strict flag (its output always follows the schema)",
    );
  }
  const current = out["output_config"] ?? extras?.["output_config"];
  const base = isObject(current) ? current : {};
  out["output_config"] = { ...base, format: { type: "json_schema", schema } };
}

/** A structured-output schema as the render sends it (dialect converted, objects closed). */
export function messagesOutputSchema(schema: JsonObject): JsonObject {
  const out = openApiToJsonSchema(structuredClone(schema));
  closeObjects(out);
  return out;
}
