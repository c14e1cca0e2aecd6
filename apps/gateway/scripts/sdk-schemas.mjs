#!/usr/bin/env node
// Writes JSON Schemas of the answer types of @anthropic-ai/sdk and @google/genai (the versions
// pinned in this package's devDependencies) to test/schemas/sdk, for test/official-schemas.test.ts.
// Run after bumping either SDK: `node scripts/sdk-schemas.mjs` in apps/gateway.
import { writeFileSync } from "node:fs";
import { createGenerator } from "ts-json-schema-generator";

const dir = new URL("../test/schemas/sdk/", import.meta.url);

/** Whether a (sub)schema admits null, following local $refs. */
function admitsNull(node, definitions) {
  if (node === null || typeof node !== "object") return false;
  if (node.type === "null" || (Array.isArray(node.type) && node.type.includes("null"))) return true;
  if (node.const === null) return true;
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(node[key]) && node[key].some((n) => admitsNull(n, definitions))) return true;
  }
  const ref = typeof node.$ref === "string" ? node.$ref.replace("#/definitions/", "") : undefined;
  return ref !== undefined && admitsNull(definitions[ref], definitions);
}

/**
 * The SDKs type a field the API may leave out as required but nullable (`citations: X | null`):
 * such a field may be absent. Everything else stays as the types say, extra keys refused.
 */
function nullableIsOptional(node, definitions) {
  if (Array.isArray(node)) {
    for (const n of node) nullableIsOptional(n, definitions);
    return;
  }
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node.required) && node.properties !== undefined) {
    node.required = node.required.filter((k) => !admitsNull(node.properties[k], definitions));
  }
  for (const value of Object.values(node)) nullableIsOptional(value, definitions);
}
const TYPES = ["AnthropicMessage", "AnthropicStreamEvent", "GeminiResponse"];
for (const type of TYPES) {
  const schema = createGenerator({
    path: new URL("sdk-types.ts", dir).pathname,
    tsconfig: new URL("../tsconfig.json", import.meta.url).pathname,
    type,
    skipTypeCheck: true,
    expose: "export",
  }).createSchema(type);
  nullableIsOptional(schema, schema.definitions ?? {});
  writeFileSync(new URL(`${type}.json`, dir), `${JSON.stringify(schema, null, 1)}\n`);
  console.log(`${type}: ${Object.keys(schema.definitions ?? {}).length} definitions`);
}
