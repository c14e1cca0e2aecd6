import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

// Issue 20, request side, through HTTP: warnings the client can see (x-interlingua-warnings, on
// JSON and on streams), strict mode (x-interlingua-strict: true -> 400 naming the field, in each
// endpoint's envelope), refused fields, parallel results in call order toward Gemini, Anthropic's
// thinking rules and structured output toward Anthropic.

const WARNINGS = "x-interlingua-warnings";
const STRICT = { ...auth(), "x-interlingua-strict": "true" };

const warningList = (headers: Headers): string[] =>
  (headers.get(WARNINGS) ?? "").split(",").filter((s) => s !== "");

/** One request per client format, each carrying a field its (foreign) upstream cannot take. */
const CASES: {
  format: string;
  path: (stream: boolean) => string;
  body: (stream: boolean) => Json;
  dropped: string[];
  envelope: (json: Json) => void;
}[] = [
  {
    format: "chat",
    path: () => "/v1/chat/completions",
    body: (stream) => ({
      model: "txtB-sonnet-4-6",
      messages: [{ role: "user", content: "hi" }],
      logprobs: true,
      top_logprobs: 2,
      seed: 7,
      stream,
    }),
    // logprobs are canonical (issue 26): the Anthropic render reports them under their names.
    dropped: ["logprobs=dropped", "topLogprobs=dropped", "sampling.seed=dropped"],
    envelope: (json) =>
      expect(json.error).toMatchObject({ code: 400, type: "invalid_request_error" }),
  },
  {
    format: "responses",
    path: () => "/v1/responses",
    // store is honoured by the gateway (stored responses); include has no Anthropic equivalent.
    body: (stream) => ({
      model: "txtB-sonnet-4-6",
      input: "hi",
      include: ["message.output_text.logprobs", "reasoning.encrypted_content"],
      stream,
    }),
    dropped: ["include=dropped", "logprobs=dropped"],
    envelope: (json) =>
      expect(json.error).toMatchObject({ code: 400, type: "invalid_request_error" }),
  },
  {
    format: "messages",
    path: () => "/v1/messages",
    body: (stream) => ({
      model: "txtA-5",
      max_tokens: 50,
      messages: [{ role: "user", content: "hi" }],
      top_k: 5,
      service_tier: "auto",
      stream,
    }),
    dropped: ["sampling.topK=dropped", "service_tier=dropped"],
    envelope: (json) =>
      expect(json).toMatchObject({ type: "error", error: { type: "invalid_request_error" } }),
  },
  {
    format: "native",
    path: (stream) =>
      `/v1beta/models/txtA-5:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
    body: () => ({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      // Logprobs reach OpenAI (issue 26); the media resolution has no place there.
      generationConfig: {
        responseLogprobs: true,
        logprobs: 2,
        mediaResolution: "MEDIA_RESOLUTION_LOW",
      },
    }),
    dropped: ["generationConfig.mediaResolution=dropped"],
    envelope: (json) => expect(json.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" }),
  },
];

describe("translation fidelity on the request side (issue 20)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  const url = (path: string) => stack.gateway.url + path;
  const lastBody = (match: (path: string) => boolean): Json =>
    [...stack.sim.requests].reverse().find((r) => match(r.path))?.body;

  describe.each(CASES)("$format", ({ path, body, dropped, envelope }) => {
    it("lists what the translation dropped in x-interlingua-warnings", async () => {
      const res = await postJson(url(path(false)), body(false));
      expect(res.status).toBe(200);
      expect(warningList(res.headers)).toEqual(expect.arrayContaining(dropped));
    });

    it("sets the header on a stream too, before the first byte", async () => {
      const res = await postJson(url(path(true)), body(true));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/event-stream/);
      expect(warningList(res.headers)).toEqual(expect.arrayContaining(dropped));
    });

    it("x-interlingua-strict: true turns the drop into a 400 naming the field, nothing sent", async () => {
      const seen = stack.sim.requests.length;
      const res = await postJson(url(path(false)), body(false), STRICT);
      expect(res.status).toBe(400);
      envelope(res.json);
      const message: string = res.json.error.message;
      const names = dropped.map((d) => d.slice(0, d.indexOf("=")));
      expect(names.some((name) => message.includes(name))).toBe(true);
      expect(stack.sim.requests.length).toBe(seen);
    });
  });

  it("a request that loses nothing has no header, and strict lets it through", async () => {
    const body = { model: "txtA-5", messages: [{ role: "user", content: "hi" }], logprobs: true };
    const res = await postJson(url("/v1/chat/completions"), body, STRICT);
    expect(res.status).toBe(200);
    expect(res.headers.get(WARNINGS)).toBeNull();
    // Same format: the field went to the upstream as sent.
    expect(lastBody((p) => p === "/v1/chat/completions")).toMatchObject({ logprobs: true });
  });

  it("an unknown previous_response_id is a 404 naming it (the gateway keeps response state)", async () => {
    const res = await postJson(url("/v1/responses"), {
      model: "txtA-5",
      input: "hi",
      previous_response_id: "resp_123",
    });
    expect(res.status).toBe(404);
    expect(res.json.error.message).toMatch(/resp_123/);
  });

  it("same-name parallel results answered out of order reach Gemini in call order", async () => {
    const call = (id: string, city: string) => ({
      id,
      type: "function",
      function: { name: "weather", arguments: JSON.stringify({ city }) },
    });
    const res = await postJson(url("/v1/chat/completions"), {
      model: "txtC-2.5-pro",
      messages: [
        { role: "user", content: "Paris and Rome?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [call("c_paris", "Paris"), call("c_rome", "Rome")],
        },
        { role: "tool", tool_call_id: "c_rome", content: "rainy" },
        { role: "tool", tool_call_id: "c_paris", content: "sunny" },
      ],
      tools: [
        {
          type: "function",
          function: {
            name: "weather",
            parameters: { type: "object", properties: { city: { type: "string" } } },
          },
        },
      ],
    });
    expect(res.status).toBe(200);
    const sent = lastBody((p) => p.includes(":generateContent"));
    const results = sent.contents[2].parts.map((p: Json) => p.functionResponse.response);
    expect(results).toEqual([{ result: "sunny" }, { result: "rainy" }]);
    expect(warningList(res.headers)).toContain("messages[2].parts=mapped");
  });

  it("a Gemini-dialect schema from a native client reaches OpenAI as JSON Schema", async () => {
    const res = await postJson(url("/v1beta/models/txtA-5:generateContent"), {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: "f",
              parameters: {
                type: "OBJECT",
                properties: {
                  kind: { type: "STRING", format: "enum", enum: ["a"], nullable: true },
                },
                propertyOrdering: ["kind"],
              },
            },
          ],
        },
      ],
    });
    expect(res.status).toBe(200);
    const sent = lastBody((p) => p === "/v1/chat/completions");
    expect(sent.tools[0].function.parameters).toEqual({
      type: "object",
      properties: { kind: { type: ["string", "null"], enum: ["a", null] } },
    });
  });

  it("a chat tool schema Gemini would refuse (number enum, empty object) reaches it fitted", async () => {
    const res = await postJson(url("/v1/chat/completions"), {
      model: "txtC-2.5-pro",
      messages: [{ role: "user", content: "hi" }],
      tools: [
        {
          type: "function",
          function: {
            name: "f",
            parameters: {
              type: "object",
              properties: {
                level: { type: "integer", enum: [1, 2, 3] },
                mode: { const: "fast" },
                options: { type: "object", properties: {}, required: [] },
              },
              required: ["level"],
            },
          },
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const sent = lastBody((p) => p.includes(":generateContent"));
    // "enum: only allowed for STRING type", "properties: should be non-empty for OBJECT type".
    expect(sent.tools[0].functionDeclarations[0].parameters).toEqual({
      type: "object",
      properties: {
        level: { type: "integer", description: "Allowed values: 1, 2, 3." },
        mode: { type: "string", enum: ["fast"] },
        options: { type: "object" },
      },
      required: ["level"],
    });
    expect(warningList(res.headers)).toContain("tools[0].parameters=mapped");
  });

  it("an effort toward a Gemini 2.5 model is a thinking budget (it refuses a level)", async () => {
    const ask = (model: string) =>
      postJson(url("/v1/chat/completions"), {
        model,
        messages: [{ role: "user", content: "think" }],
        reasoning_effort: "low",
      });
    const old = await ask("txtC-2.5-pro");
    expect(old.status, old.text).toBe(200);
    // "Thinking level is not supported for this model", the upstream answers a level on 2.5.
    const sent = lastBody((p) => p.includes(":generateContent"));
    expect(sent.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 2048 });
    expect(warningList(old.headers)).toContain("thinking.effort=mapped");
    const recent = await ask("txtC-3.6-flash");
    expect(recent.status, recent.text).toBe(200);
    const level = lastBody((p) => p.includes(":generateContent"));
    expect(level.generationConfig.thinkingConfig).toEqual({ thinkingLevel: "low" });
  });

  it("inline file data with no name reaches OpenAI with a filename (it refuses file_data without)", async () => {
    const pdf = "JVBERi0xLjQK";
    const res = await postJson(url("/v1beta/models/txtA-5:generateContent"), {
      contents: [
        {
          role: "user",
          parts: [{ text: "read" }, { inlineData: { mimeType: "application/pdf", data: pdf } }],
        },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const sent = lastBody((p) => p === "/v1/chat/completions");
    expect(sent.messages[0].content[1]).toEqual({
      type: "file",
      file: { file_data: `data:application/pdf;base64,${pdf}`, filename: "file.pdf" },
    });
  });

  it("high effort with max_tokens 20000 toward Anthropic leaves room for the answer", async () => {
    const res = await postJson(url("/v1/chat/completions"), {
      model: "txtB-sonnet-4-6",
      messages: [{ role: "user", content: "think" }],
      reasoning_effort: "high",
      max_completion_tokens: 20000,
      temperature: 0.3,
    });
    expect(res.status).toBe(200);
    const sent = lastBody((p) => p === "/v1/messages");
    expect(sent.max_tokens).toBe(20000);
    expect(sent.thinking.budget_tokens).toBe(15000);
    expect(sent).not.toHaveProperty("temperature");
    expect(warningList(res.headers)).toContain("sampling.temperature=dropped");
  });

  it("a messages client's structured output (output_config.format) reaches OpenAI as response_format", async () => {
    const schema = {
      type: "object",
      properties: { n: { type: "string" } },
      additionalProperties: false,
    };
    const res = await postJson(url("/v1/messages"), {
      model: "txtA-5",
      max_tokens: 50,
      messages: [{ role: "user", content: "extract" }],
      output_config: { format: { type: "json_schema", schema } },
    });
    expect(res.status).toBe(200);
    const sent = lastBody((p) => p === "/v1/chat/completions");
    expect(sent.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "response", schema },
    });
    expect(warningList(res.headers)).not.toContain("output_config.format=dropped");
  });

  it("response_format json_schema reaches Anthropic as output_config.format, the JSON comes back as text", async () => {
    const res = await postJson(url("/v1/chat/completions"), {
      model: "txtB-sonnet-4-6",
      messages: [{ role: "user", content: "extract" }],
      response_format: {
        type: "json_schema",
        json_schema: {
          name: "p",
          schema: { type: "object", properties: { n: { type: "string" } } },
        },
      },
    });
    expect(res.status).toBe(200);
    const sent = lastBody((p) => p === "/v1/messages");
    expect(sent.output_config).toEqual({
      format: {
        type: "json_schema",
        schema: {
          type: "object",
          properties: { n: { type: "string" } },
          additionalProperties: false,
        },
      },
    });
    const data = res.json.data ?? res.json;
    expect(typeof data.choices[0].message.content).toBe("string");
  });
});
