import { readFileSync, writeFileSync } from "node:fs";
import AjvModule, { type ErrorObject } from "ajv";
import Ajv2020Module from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, responsesChannel, type Stack, startStack } from "./stack.ts";
import { type Json, parseSse } from "./wire.ts";

// Issue 24 point 5: the answers OpenAI-format clients get, on every upstream, stream and not,
// errors included, validated with ajv against OpenAI's own published OpenAPI document (the
// subset in schemas/openai, vendored by scripts/vendor-openai-schemas.mjs, MIT).

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

const SCHEMAS = {
  chat: validator("CreateChatCompletionResponse"),
  chatChunk: validator("CreateChatCompletionStreamResponse"),
  response: validator("Response"),
  responseEvent,
  error: validator("ErrorResponse"),
  anthropicMessage: sdkValidator("AnthropicMessage"),
  anthropicEvent: sdkValidator("AnthropicStreamEvent"),
  gemini: sdkValidator("GeminiResponse"),
};

const UPSTREAMS = {
  openai: "txtD-r1-250528",
  anthropic: "txtB-sonnet-4-6",
  gemini: "txtC-2.5-pro",
  "openai-responses": "txtA-5.2-pro",
};
const ASKS = {
  text: "hello there",
  tool: "[[tool:get_weather]] weather please",
};
const TOOL = {
  name: "get_weather",
  description: "Weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

const chatBody = (model: string, text: string, stream: boolean) => ({
  model,
  messages: [{ role: "user", content: text }],
  tools: [{ type: "function", function: TOOL }],
  reasoning_effort: "high",
  ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
});
const responsesBody = (model: string, text: string, stream: boolean) => ({
  model,
  input: text,
  tools: [{ type: "function", ...TOOL }],
  reasoning: { effort: "high", summary: "auto" },
  ...(stream ? { stream: true } : {}),
});

describe("answers match the providers' published schemas and SDK types", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      extraChannels: responsesChannel("txtA-5.2-pro"),
    });
  });
  afterAll(() => stack.close());

  const post = (path: string, body: unknown) =>
    fetch(`${stack.gateway.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-interlingua-envelope": "bare", ...auth() },
      body: JSON.stringify(body),
    });

  /** Every data frame of a stream against `frame`, error frames against ErrorResponse. */
  const frameDeviations = (text: string, frame: (v: unknown) => string[]) =>
    parseSse(text)
      .filter((f) => f.data !== "[DONE]")
      .flatMap((f, i) => {
        const data = JSON.parse(f.data) as Json;
        const check = f.event === undefined && data.error !== undefined ? SCHEMAS.error : frame;
        return check(data).map((d) => `frame ${i} (${data.type ?? f.event ?? "chunk"}): ${d}`);
      });

  for (const [upstream, model] of Object.entries(UPSTREAMS)) {
    for (const [ask, text] of Object.entries(ASKS)) {
      it(`chat completions, ${upstream} upstream, ${ask}: JSON and stream`, async () => {
        const json = await post("/v1/chat/completions", chatBody(model, text, false));
        expect(json.status).toBe(200);
        expect(SCHEMAS.chat(await json.json())).toEqual([]);
        const stream = await post("/v1/chat/completions", chatBody(model, text, true));
        expect(frameDeviations(await stream.text(), SCHEMAS.chatChunk)).toEqual([]);
      });

      it(`messages (@anthropic-ai/sdk types), ${upstream} upstream, ${ask}: JSON and stream`, async () => {
        const body = (stream: boolean) => ({
          model,
          max_tokens: 2048,
          messages: [{ role: "user", content: text }],
          tools: [
            { name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters },
          ],
          thinking: { type: "enabled", budget_tokens: 1024 },
          ...(stream ? { stream: true } : {}),
        });
        const json = await post("/v1/messages", body(false));
        expect(json.status).toBe(200);
        expect(SCHEMAS.anthropicMessage(await json.json())).toEqual([]);
        const stream = await post("/v1/messages", body(true));
        const frames = parseSse(await stream.text());
        expect(frames.length).toBeGreaterThan(2);
        expect(
          frames
            // `ping` is Anthropic's keep-alive, which the SDK reads apart from the event union.
            .filter((f) => f.event !== "ping")
            .flatMap((f, i) =>
              SCHEMAS.anthropicEvent(JSON.parse(f.data)).map(
                (d) => `frame ${i} (${f.event}): ${d}`,
              ),
            ),
        ).toEqual([]);
      });

      it(`generateContent (@google/genai types), ${upstream} upstream, ${ask}: JSON and stream`, async () => {
        const body = {
          contents: [{ role: "user", parts: [{ text }] }],
          tools: [{ functionDeclarations: [TOOL] }],
          generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
        };
        const json = await post(`/v1beta/models/${model}:generateContent`, body);
        expect(json.status).toBe(200);
        expect(SCHEMAS.gemini(await json.json())).toEqual([]);
        const stream = await post(`/v1beta/models/${model}:streamGenerateContent?alt=sse`, body);
        const frames = parseSse(await stream.text());
        expect(frames.length).toBeGreaterThan(1);
        expect(
          frames.flatMap((f, i) =>
            SCHEMAS.gemini(JSON.parse(f.data)).map((d) => `frame ${i}: ${d}`),
          ),
        ).toEqual([]);
      });

      it(`responses, ${upstream} upstream, ${ask}: JSON and stream`, async () => {
        const json = await post("/v1/responses", responsesBody(model, text, false));
        expect(json.status).toBe(200);
        expect(SCHEMAS.response(await json.json())).toEqual([]);
        const stream = await post("/v1/responses", responsesBody(model, text, true));
        expect(frameDeviations(await stream.text(), SCHEMAS.responseEvent)).toEqual([]);
      });
    }
  }

  // The API reference's error envelope for these endpoints gives `code` as the HTTP status (an
  // integer) where OpenAI's says string or null, and `param` only when a field is named (OpenAI:
  // string or null, always): both are checked as the contract says, the rest as OpenAI's.
  const errorDeviations = async (res: Response) => {
    const body = (await res.json()) as Json;
    expect(body.error.code).toBe(res.status);
    expect(body.error.param === undefined || typeof body.error.param === "string").toBe(true);
    const { param = null, code } = body.error;
    return SCHEMAS.error({ ...body, error: { ...body.error, code: String(code), param } });
  };

  it("errors: a refused request and an upstream failure, in OpenAI's error shape", async () => {
    for (const path of ["/v1/chat/completions", "/v1/responses"]) {
      const refused = await post(path, { model: "txtA-5" });
      expect(refused.status).toBe(400);
      expect(await errorDeviations(refused)).toEqual([]);
    }
    const failed = await post(
      "/v1/chat/completions",
      chatBody(UPSTREAMS.anthropic, "[[fault:status=400]] bad", false),
    );
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(await errorDeviations(failed)).toEqual([]);
  });
});
