import { readFileSync, writeFileSync } from "node:fs";
import AjvModule, { type ErrorObject } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import { afterAll } from "vitest";
import { type Json, parseSse } from "./wire.ts";

// Validators of the answers clients get: OpenAI's published OpenAPI document (the subset in
// schemas/openai, vendored by scripts/vendor-openai-schemas.mjs, MIT) and the Anthropic and
// Google SDKs' answer types (schemas/sdk, scripts/sdk-schemas.mjs). Each returns the deviations
// found, [] for none.

const subset = JSON.parse(
  readFileSync(new URL("./schemas/openai/openapi-subset.json", import.meta.url), "utf8"),
) as Json;
// ajv is CommonJS: its class is the module's default export, or the module itself.
const classOf = <T>(module: T): T => (module as { default?: T }).default ?? module;
const Ajv = classOf(AjvModule);
const Ajv2020 = classOf(Ajv2020Module);
// OpenAPI 3.1 schemas are JSON Schema 2020-12 plus keywords ajv need not know (discriminator).
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(subset, "openai");
/** Every deviation found, for SCHEMA_LOG=<file> (a summary while fixing). */
const logged: string[] = [];
afterAll(() => {
  const file = process.env["SCHEMA_LOG"];
  if (file !== undefined) writeFileSync(file, logged.join("\n"));
});
const validator = (name: string) => {
  const validate = ajv.getSchema(`openai#/components/schemas/${name}`);
  if (validate === undefined) throw new Error(`no schema ${name}`);
  return (value: unknown): string[] => {
    if (validate(value)) return [];
    const found = (validate.errors ?? []).map(
      (e: ErrorObject) =>
        `${name}${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`,
    );
    logged.push(...found);
    return found;
  };
};
/**
 * ResponseStreamEvent is an anyOf of one schema per event type: an event is checked against the
 * schema its `type` names, so a deviation reads as that event's, not as fifty branches'.
 */
const eventSchemas = new Map<string, (value: unknown) => string[]>();
for (const branch of subset.components.schemas.ResponseStreamEvent.anyOf as { $ref: string }[]) {
  const name = branch.$ref.split("/").at(-1) as string;
  const type = subset.components.schemas[name]?.properties?.type;
  for (const value of (type?.enum ?? [type?.const]) as (string | undefined)[]) {
    if (value !== undefined) eventSchemas.set(value, validator(name));
  }
}
const responseEvent = (value: unknown): string[] => {
  const type = (value as { type?: unknown }).type;
  const check = typeof type === "string" ? eventSchemas.get(type) : undefined;
  return check === undefined
    ? [`ResponseStreamEvent: no event type ${String(type)}`]
    : check(value);
};

/** The SDKs' own answer types as JSON Schema (scripts/sdk-schemas.mjs, draft-07). */
const sdkAjv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
const sdkValidator = (type: string) => {
  const schema = JSON.parse(
    readFileSync(new URL(`./schemas/sdk/${type}.json`, import.meta.url), "utf8"),
  ) as Json;
  const validate = sdkAjv.compile(schema);
  return (value: unknown): string[] => {
    if (validate(value)) return [];
    const found = (validate.errors ?? []).map(
      (e: ErrorObject) =>
        `${type}${e.instancePath || "/"} ${e.message} ${JSON.stringify(e.params)}`,
    );
    logged.push(...found);
    return found;
  };
};

export const SCHEMAS = {
  chat: validator("CreateChatCompletionResponse"),
  chatChunk: validator("CreateChatCompletionStreamResponse"),
  response: validator("Response"),
  responseEvent,
  error: validator("ErrorResponse"),
  anthropicMessage: sdkValidator("AnthropicMessage"),
  anthropicEvent: sdkValidator("AnthropicStreamEvent"),
  gemini: sdkValidator("GeminiResponse"),
};

/** Every data frame of a stream against `frame`, error frames against ErrorResponse. */
export const frameDeviations = (text: string, frame: (v: unknown) => string[]) =>
  parseSse(text)
    .filter((f) => f.data !== "[DONE]")
    .flatMap((f, i) => {
      const data = JSON.parse(f.data) as Json;
      const check = f.event === undefined && data.error !== undefined ? SCHEMAS.error : frame;
      return check(data).map((d) => `frame ${i} (${data.type ?? f.event ?? "chunk"}): ${d}`);
    });
