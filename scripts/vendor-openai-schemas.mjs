#!/usr/bin/env node
// Writes the part of OpenAI's published OpenAPI document (github.com/openai/openai-openapi,
// openapi.json, MIT) that the gateway's answers are validated against: the schemas below and
// every schema they reference, nothing else. Run by hand when OpenAI's document moves on:
//   node scripts/vendor-openai-schemas.mjs <path to openapi.json> [commit]
import { readFileSync, writeFileSync } from "node:fs";

const ROOTS = [
  "CreateChatCompletionResponse",
  "CreateChatCompletionStreamResponse",
  "Response",
  "ResponseStreamEvent",
  "ErrorResponse",
];
const OUT = new URL("../apps/gateway/test/schemas/openai/openapi-subset.json", import.meta.url);

const [source, commit = "unknown"] = process.argv.slice(2);
if (source === undefined) {
  console.error("usage: node scripts/vendor-openai-schemas.mjs <openapi.json> [commit]");
  process.exit(2);
}
const document = JSON.parse(readFileSync(source, "utf8"));
const all = document.components.schemas;
const kept = {};
const PREFIX = "#/components/schemas/";

/**
 * Copies a schema without OpenAI's documentation extras (x-oaiMeta, examples). The document is
 * OpenAPI 3.1 but still says `nullable: true` in places (3.0's word): that becomes JSON Schema's
 * own null type, so a plain 2020-12 validator reads it as OpenAI means it.
 */
function strip(node) {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("x-") || key === "example" || key === "examples" || key === "nullable") {
      continue;
    }
    out[key] = strip(value);
  }
  if (node.nullable !== true) return out;
  // 3.0's nullable also admits null beside an enum's values.
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (typeof out.type === "string") return { ...out, type: [out.type, "null"] };
  if (Array.isArray(out.type)) return { ...out, type: [...new Set([...out.type, "null"])] };
  return { anyOf: [out, { type: "null" }] };
}

function visit(name) {
  if (name in kept) return;
  const schema = all[name];
  if (schema === undefined) throw new Error(`no schema ${name}`);
  kept[name] = strip(schema);
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith(PREFIX)) {
        visit(value.slice(PREFIX.length));
      } else walk(value);
    }
  };
  walk(schema);
}
for (const root of ROOTS) visit(root);

const subset = {
  $comment: `A subset of OpenAI's OpenAPI document ${document.info.version} (github.com/openai/openai-openapi, commit ${commit}, MIT: see LICENSE beside this file), written by scripts/vendor-openai-schemas.mjs: ${ROOTS.join(", ")} and what they reference.`,
  components: {
    schemas: Object.fromEntries(
      Object.keys(kept)
        .sort()
        .map((k) => [k, kept[k]]),
    ),
  },
};
writeFileSync(OUT, `${JSON.stringify(subset, null, 1)}\n`);
console.log(`${Object.keys(kept).length} schemas written to ${OUT.pathname}`);
