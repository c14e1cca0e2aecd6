import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frameDeviations, SCHEMAS } from "./official-schema-validators.ts";
import { auth, responsesChannel, type Stack, startStack } from "./stack.ts";
import { type Json, parseSse } from "./wire.ts";

// Issue 24 point 5: the answers OpenAI-format clients get, on every upstream, stream and not,
// errors included, validated with ajv against OpenAI's own published OpenAPI document (the
// subset in schemas/openai, vendored by scripts/vendor-openai-schemas.mjs, MIT).

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

  // docs/api-reference.md gives a function tool nested ({type, function: {...}}); the Response
  // object lists it flat, as OpenAI's FunctionTool: bare bodies, and streams on both envelopes.
  it("responses with nested function tools: the Response object lists them flat", async () => {
    const nested = (stream: boolean) => ({
      ...responsesBody(UPSTREAMS.anthropic, ASKS.tool, stream),
      tools: [{ type: "function", function: TOOL }],
    });
    const flat = { type: "function", ...TOOL, strict: null };
    for (const envelope of ["bare", "spec"]) {
      const send = (stream: boolean) =>
        fetch(`${stack.gateway.url}/v1/responses`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-interlingua-envelope": envelope,
            ...auth(),
          },
          body: JSON.stringify(nested(stream)),
        });
      // The spec envelope's non-stream `data` is the reference's own result, without the echo.
      if (envelope === "bare") {
        const json = await send(false);
        expect(json.status).toBe(200);
        const object = (await json.json()) as Json;
        expect(object.tools).toEqual([flat]);
        expect(SCHEMAS.response(object)).toEqual([]);
      }
      const text = await (await send(true)).text();
      expect(frameDeviations(text, SCHEMAS.responseEvent)).toEqual([]);
      const echoed = parseSse(text)
        .map((f) => JSON.parse(f.data) as Json)
        .filter((e) => e.type === "response.created" || e.type === "response.completed");
      expect(echoed.map((e) => e.response.tools)).toEqual([[flat], [flat]]);
    }
  });

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
