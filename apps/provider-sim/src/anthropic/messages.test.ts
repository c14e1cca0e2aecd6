import { describe, expect, it } from "vitest";
import { alnumId, hexId } from "../core/hash.ts";
import { post, sseEvents, sseJson, useSim } from "../testing/http.ts";
import { thinkingSignature } from "./thinking-signature.ts";

const sim = useSim();
const keyed = useSim({ keys: { anthropic: ["sk-ant-good"] } });
const HEADERS = { "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01" };
const messages = (body: unknown, headers: Record<string, string> = HEADERS) =>
  post(`${sim().url}/v1/messages`, body, headers);

const TOOLS = [
  {
    name: "get_weather",
    description: "Weather",
    input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  { name: "list_alerts", description: "Alerts", input_schema: { type: "object", properties: {} } },
];

const usage = (input: number, output: number) => ({
  input_tokens: input,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  output_tokens: output,
  service_tier: "standard",
  inference_geo: "not_available",
});

describe("POST /v1/messages", () => {
  const request = {
    model: "claude-sonnet-4-5",
    max_tokens: 256,
    system: "Be brief.",
    messages: [{ role: "user", content: "Hello, Claude" }],
  };

  it("answers a whole message with the full usage object", async () => {
    const response = await messages(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("request-id")).toMatch(/^req_/);
    expect(await response.json()).toEqual({
      model: "claude-sonnet-4-5",
      id: `msg_${alnumId(JSON.stringify(request), 24)}`,
      type: "message",
      role: "assistant",
      content: [{ type: "text", text: "echo: Hello, Claude" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      // prompt: "Be brief." + "Hello, Claude" = 22 chars; reply: 19 chars
      usage: usage(6, 5),
    });
  });

  it("streams named events: message_start, blocks with a ping, message_delta, message_stop", async () => {
    const body = { ...request, stream: true };
    const response = await messages(body);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const text = await response.text();
    const events = sseEvents(text);
    expect(events.every((e) => e.event === (JSON.parse(e.data) as { type: string }).type)).toBe(
      true,
    );
    expect(sseJson(text)).toEqual([
      {
        type: "message_start",
        message: {
          model: "claude-sonnet-4-5",
          id: `msg_${alnumId(JSON.stringify(body), 24)}`,
          type: "message",
          role: "assistant",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: usage(6, 1),
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "ping" },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "text_delta", text: "echo: Hello, Claude" },
      },
      { type: "content_block_stop", index: 0 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: {
          input_tokens: 6,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 5,
        },
      },
      { type: "message_stop" },
    ]);
  });

  it("thinks with a deterministic signature when thinking is enabled or adaptive", async () => {
    const thinking = "thinking about: Hello, Claude";
    for (const type of ["enabled", "adaptive"]) {
      const body = await (
        await messages({ ...request, thinking: { type, budget_tokens: 1024 } })
      ).json();
      expect(body.content).toEqual([
        { type: "thinking", thinking, signature: thinkingSignature(thinking) },
        { type: "text", text: "echo: Hello, Claude" },
      ]);
      expect(body.usage.output_tokens).toBe(5 + 8); // thinking (29 chars) is part of output_tokens
    }
    const stream = sseJson(
      await (
        await messages({
          ...request,
          stream: true,
          thinking: { type: "enabled", budget_tokens: 1024 },
        })
      ).text(),
    );
    const deltas = stream
      .filter((e) => e.type === "content_block_delta" && e.index === 0)
      .map((e) => e.delta as Record<string, string>);
    expect(stream[1]).toEqual({
      type: "content_block_start",
      index: 0,
      content_block: { type: "thinking", thinking: "", signature: "" },
    });
    expect(
      deltas
        .filter((d) => d.type === "thinking_delta")
        .map((d) => d.thinking)
        .join(""),
    ).toBe(thinking);
    expect(deltas.at(-1)).toEqual({
      type: "signature_delta",
      signature: thinkingSignature(thinking),
    });
  });

  it("refuses a thinking block sent back with a wrong signature", async () => {
    const history = (signature: string) => ({
      ...request,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [
        { role: "user", content: "first" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "t", signature },
            { type: "text", text: "a" },
          ],
        },
        { role: "user", content: "second" },
      ],
    });
    const bad = await messages(history("forged"));
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toEqual({
      type: "invalid_request_error",
      message: "messages.1.content.0: Invalid `signature` in `thinking` block",
    });
    expect((await messages(history(thinkingSignature("t")))).status).toBe(200);
  });

  it("calls tools in parallel as tool_use blocks, {} for a tool without arguments", async () => {
    const body = { ...request, tools: TOOLS, messages: [{ role: "user", content: "[[tools:2]]" }] };
    const reply = await (await messages(body)).json();
    const seed = JSON.stringify(body);
    expect(reply.content).toEqual([
      {
        type: "tool_use",
        id: `toolu_${hexId(`${seed}:0:0`)}`,
        name: "get_weather",
        input: { city: "sample city" },
        caller: { type: "direct" },
      },
      {
        type: "tool_use",
        id: `toolu_${hexId(`${seed}:0:1`)}`,
        name: "list_alerts",
        input: {},
        caller: { type: "direct" },
      },
    ]);
    expect(reply.stop_reason).toBe("tool_use");
  });

  it("streams tool input as input_json_delta fragments", async () => {
    const events = sseJson(
      await (
        await messages({
          ...request,
          stream: true,
          tools: TOOLS,
          messages: [{ role: "user", content: "[[tools:2]]" }],
        })
      ).text(),
    );
    const starts = events.filter((e) => e.type === "content_block_start");
    expect(starts.map((e) => (e.content_block as { type: string; input: unknown }).input)).toEqual([
      {},
      {},
    ]);
    const json = (index: number) =>
      events
        .filter((e) => e.type === "content_block_delta" && e.index === index)
        .map((e) => (e.delta as { partial_json: string }).partial_json);
    expect(json(0).length).toBeGreaterThan(2);
    expect(json(0).join("")).toBe('{"city":"sample city"}');
    expect(json(1)).toEqual([""]);
    expect(events.find((e) => e.type === "message_delta")?.delta).toEqual({
      stop_reason: "tool_use",
      stop_sequence: null,
    });
  });

  it("answers tool results with text", async () => {
    const reply = await (
      await messages({
        ...request,
        tools: TOOLS,
        messages: [
          { role: "user", content: "[[tool:get_weather]]" },
          {
            role: "assistant",
            content: [
              { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
            ],
          },
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "rain" }],
          },
        ],
      })
    ).json();
    expect(reply.content).toEqual([{ type: "text", text: "echo: rain" }]);
  });

  it("stops with max_tokens", async () => {
    const reply = await (await messages({ ...request, max_tokens: 1 })).json();
    expect(reply).toMatchObject({
      stop_reason: "max_tokens",
      content: [{ type: "text", text: "echo" }],
      usage: { output_tokens: 1 },
    });
  });

  it("requires x-api-key (401) and anthropic-version (400), in Anthropic's error shape", async () => {
    const noKey = await messages(request, { "anthropic-version": "2023-06-01" });
    expect(noKey.status).toBe(401);
    const requestId = noKey.headers.get("request-id");
    expect(requestId).toMatch(/^req_/);
    expect(await noKey.json()).toEqual({
      type: "error",
      error: { type: "authentication_error", message: "x-api-key header is required" },
      request_id: requestId,
    });
    const noVersion = await messages(request, { "x-api-key": "k" });
    expect(noVersion.status).toBe(400);
    expect((await noVersion.json()).error.type).toBe("invalid_request_error");
    const wrong = await post(`${keyed().url}/v1/messages`, request, {
      ...HEADERS,
      "x-api-key": "sk-ant-bad",
    });
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toEqual({
      type: "authentication_error",
      message: "invalid x-api-key",
    });
    // The keys option is per protocol: OpenAI still takes any key.
    expect(
      (
        await post(
          `${keyed().url}/v1/chat/completions`,
          { model: "m", messages: [{ role: "user", content: "x" }] },
          { authorization: "Bearer any" },
        )
      ).status,
    ).toBe(200);
  });

  it("refuses a request without max_tokens", async () => {
    const { max_tokens: _, ...rest } = request;
    const response = await messages(rest);
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe("max_tokens: Field required");
  });
});

describe("POST /v1/messages/count_tokens", () => {
  const count = (body: unknown) => post(`${sim().url}/v1/messages/count_tokens`, body, HEADERS);
  const request = {
    model: "claude-sonnet-4-5",
    system: "Be brief.",
    messages: [{ role: "user", content: "Hello, Claude" }],
  };

  it("counts the prompt as usage does", async () => {
    const response = await count(request);
    expect(response.status).toBe(200);
    // "Be brief." + "Hello, Claude" = 22 chars, as in the message's usage above.
    expect(await response.json()).toEqual({ input_tokens: 6 });
  });

  it("refuses max_tokens and other generation settings, as Anthropic does", async () => {
    const response = await count({ ...request, max_tokens: 10 });
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe(
      "max_tokens: Extra inputs are not permitted",
    );
  });

  it("applies fault directives", async () => {
    const faulted = {
      ...request,
      messages: [{ role: "user", content: "[[fault:status=529]] hi" }],
    };
    expect((await count(faulted)).status).toBe(529);
  });
});
