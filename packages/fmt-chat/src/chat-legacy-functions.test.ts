import { type Request, type Response, responseToEvents } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { rejection } from "../test/rejection.js";
import type { ChatRequestWire } from "./chat-api.js";
import { normalizeChatRequest } from "./normalize-chat-request.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { renderChatRequest } from "./render-chat-request.js";
import { renderChatResponse } from "./render-chat-response.js";
import { encodeChatEvents } from "./render-chat-stream.js";
import { chatLegacyRequestWire, fc } from "./testing.js";

const weather = {
  name: "get_weather",
  description: "The weather of a city",
  parameters: { type: "object", properties: { city: { type: "string" } } },
};

/** A two-turn loop as an OpenAI SDK of 2023 writes it. */
const loop = {
  model: "txtA-5",
  functions: [weather],
  function_call: "auto",
  messages: [
    { role: "user", content: "Weather in Paris?" },
    {
      role: "assistant",
      content: null,
      function_call: { name: "get_weather", arguments: '{"city":"Paris"}' },
    },
    { role: "function", name: "get_weather", content: "sunny" },
  ],
} as const;

describe("legacy functions: request", () => {
  it("parses functions as function tools, function_call as the tool choice, the history as a call and its result", () => {
    const request = parseChatRequest(loop);
    expect(request.tools).toEqual([{ type: "function", ...weather }]);
    expect(request.toolChoice).toEqual({ type: "auto" });
    expect(request.providerExtras).toEqual({ openai: { legacyFunctions: true } });
    expect(request.extras).toBeUndefined();
    expect(request.messages.slice(1)).toEqual([
      {
        role: "assistant",
        parts: [
          {
            type: "tool-call",
            id: "function_call_0",
            name: "get_weather",
            arguments: '{"city":"Paris"}',
          },
        ],
      },
      {
        role: "tool",
        parts: [
          {
            type: "tool-result",
            toolCallId: "function_call_0",
            name: "get_weather",
            content: [{ type: "text", text: "sunny" }],
          },
        ],
      },
    ]);
  });

  it.each([
    ["none", { type: "none" }],
    ["auto", { type: "auto" }],
    [{ name: "get_weather" }, { type: "tool", name: "get_weather" }],
  ])("function_call %j is the tool choice %j, and renders back", (choice, toolChoice) => {
    const wire = { ...loop, function_call: choice };
    const request = parseChatRequest(wire);
    expect(request.toolChoice).toEqual(toolChoice);
    expect(renderChatRequest(request).function_call).toEqual(choice);
  });

  it("renders back as it came, with no warning", () => {
    const warnings: unknown[] = [];
    const wire = renderChatRequest(parseChatRequest(loop), {
      onWarning: (w) => warnings.push(w),
    });
    expect(wire).toStrictEqual(normalizeChatRequest(loop as unknown as ChatRequestWire));
    expect(wire.tools).toBeUndefined();
    expect(wire.functions).toEqual([weather]);
    expect(warnings).toEqual([]);
  });

  it("pairs a result with the latest unanswered call of its name", () => {
    const request = parseChatRequest({
      ...loop,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: null, function_call: { name: "a", arguments: "{}" } },
        { role: "function", name: "a", content: "1" },
        { role: "assistant", content: null, function_call: { name: "b", arguments: "{}" } },
        { role: "assistant", content: null, function_call: { name: "a", arguments: "{}" } },
        { role: "function", name: "b", content: "2" },
        { role: "function", name: "a", content: "3" },
        { role: "function", name: "c", content: "4" },
      ],
    });
    const results = request.messages
      .flatMap((m) => (m.role === "tool" ? m.parts : []))
      .map((p) => [p.name, p.toolCallId]);
    expect(results).toEqual([
      ["a", "function_call_0"],
      ["b", "function_call_1"],
      ["a", "function_call_2"],
      // Answering no call: an id of its own, never one of a call.
      ["c", "function_call_3"],
    ]);
  });

  it("parses a function_call in history without functions as a tool call (rendered as tool_calls)", () => {
    const { functions: _f, function_call: _c, ...rest } = loop;
    const request = parseChatRequest(rest);
    expect(request.providerExtras).toBeUndefined();
    const wire = renderChatRequest(request);
    expect(wire).toStrictEqual(normalizeChatRequest(rest as unknown as ChatRequestWire));
    expect(wire.messages[2]).toEqual({
      role: "tool",
      tool_call_id: "function_call_0",
      content: "sunny",
    });
  });

  it.each([
    [{ tools: [{ type: "function", function: weather }] }, "functions"],
    [{ tool_choice: "auto" }, "tool_choice"],
    [
      {
        messages: [
          { role: "user", content: "hi" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
          },
        ],
      },
      "messages[1].tool_calls",
    ],
    [{ messages: [{ role: "tool", tool_call_id: "c", content: "x" }] }, "messages[0].role"],
    [{ functions: undefined }, "function_call"],
    [{ functions: [{ name: "" }] }, "functions[0].name"],
    [{ function_call: "required" }, "function_call"],
  ])("refuses what OpenAI refuses: %j (400 on %s)", (over, param) => {
    const error = rejection(() => parseChatRequest({ ...loop, ...over }));
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
  });

  it("renders a tool choice it has no form for as auto, reported", () => {
    const request: Request = { ...parseChatRequest(loop), toolChoice: { type: "required" } };
    const warnings: unknown[] = [];
    const wire = renderChatRequest(request, { onWarning: (w) => warnings.push(w) });
    expect(wire.function_call).toBeUndefined();
    expect(warnings).toEqual([expect.objectContaining({ type: "dropped", feature: "toolChoice" })]);
  });

  it("refuses to render two calls in one legacy turn", () => {
    const request = parseChatRequest(loop);
    const turn = request.messages[1];
    if (turn?.role !== "assistant") throw new Error("expected the assistant turn");
    turn.parts.push({ type: "tool-call", id: "x", name: "get_weather", arguments: "{}" });
    expect(rejection(() => renderChatRequest(request)).param).toBe("messages[1].parts");
  });
});

describe("legacy functions: the round-trip laws", () => {
  it("law 1: render(parse(w)) equals normalize(w)", () => {
    fc.assert(
      fc.property(chatLegacyRequestWire, (wire) => {
        expect(renderChatRequest(parseChatRequest(wire))).toStrictEqual(normalizeChatRequest(wire));
      }),
    );
  });

  it("law 2 on what a normal wire parses to: parse(render(c)) equals c, with no warning", () => {
    fc.assert(
      fc.property(chatLegacyRequestWire, (wire) => {
        const request = parseChatRequest(normalizeChatRequest(wire));
        const warnings: unknown[] = [];
        const back = parseChatRequest(
          renderChatRequest(request, { onWarning: (w) => warnings.push(w) }),
        );
        expect(back).toStrictEqual(request);
        expect(warnings).toEqual([]);
      }),
    );
  });
});

/** A reply from another provider with two calls, as the gateway fills it. */
const reply: Response = {
  id: "msg_1",
  model: "txtB-sonnet-4-6",
  created: 1_700_000_000,
  usage: {
    inputTokens: 10,
    outputTokens: 5,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
  message: {
    role: "assistant",
    parts: [
      { type: "text", text: "Looking." },
      { type: "tool-call", id: "toolu_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "tool-call", id: "toolu_2", name: "lookup", arguments: "{}" },
    ],
  },
  finishReason: { unified: "tool-calls", raw: "tool_use" },
};

const legacyOptions = (warnings: unknown[]) => ({
  providerExtras: { openai: { legacyFunctions: true } },
  onWarning: (w: unknown) => warnings.push(w),
});

describe("legacy functions: reply", () => {
  it("a request with functions gets its first call as message.function_call, finish function_call", () => {
    const warnings: unknown[] = [];
    const body = renderChatResponse(reply, legacyOptions(warnings));
    expect(body.choices[0]).toMatchObject({
      message: {
        role: "assistant",
        content: "Looking.",
        function_call: { name: "get_weather", arguments: '{"city":"Paris"}' },
      },
      finish_reason: "function_call",
    });
    expect(body.choices[0]?.message.tool_calls).toBeUndefined();
    expect(warnings).toEqual([
      expect.objectContaining({ type: "dropped", feature: "choices[0].message.tool_calls[1]" }),
    ]);
  });

  it("a request with tools gets tool_calls as before", () => {
    const body = renderChatResponse(reply);
    expect(body.choices[0]?.message.function_call).toBeUndefined();
    expect(body.choices[0]?.message.tool_calls).toHaveLength(2);
    expect(body.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("an upstream's function_call reply parses as a tool call and renders back", () => {
    const wire = {
      id: "chatcmpl-1",
      object: "chat.completion",
      created: 1,
      model: "txtA-5",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            function_call: { name: "f", arguments: "{}" },
          },
          finish_reason: "function_call",
        },
      ],
    };
    const response = parseChatResponse(wire);
    expect(response).toMatchObject({
      message: {
        parts: [{ type: "tool-call", id: "function_call_0", name: "f", arguments: "{}" }],
      },
      finishReason: { unified: "tool-calls", raw: "function_call" },
    });
    expect(renderChatResponse(response, legacyOptions([])).choices[0]).toMatchObject({
      message: { function_call: { name: "f", arguments: "{}" } },
      finish_reason: "function_call",
    });
  });

  it("streamed: delta.function_call chunks, finish function_call, no tool_calls", () => {
    const warnings: unknown[] = [];
    const chunks = encodeChatEvents(responseToEvents(reply), legacyOptions(warnings))
      .filter((m) => m.data !== "[DONE]")
      .map((m) => JSON.parse(m.data).choices[0]);
    const deltas = chunks.map((c) => c.delta);
    expect(deltas.some((d) => d.tool_calls !== undefined)).toBe(false);
    const calls = deltas.filter((d) => d.function_call !== undefined).map((d) => d.function_call);
    expect(calls[0]).toEqual({ name: "get_weather", arguments: "" });
    expect(calls.map((c) => c.arguments).join("")).toBe('{"city":"Paris"}');
    expect(calls.slice(1).every((c) => c.name === undefined)).toBe(true);
    expect(chunks.at(-1).finish_reason).toBe("function_call");
    expect(warnings).toEqual([expect.objectContaining({ type: "dropped", feature: "tool_calls" })]);
  });

  it("streamed with tools: tool_calls as before", () => {
    const chunks = encodeChatEvents(responseToEvents(reply))
      .filter((m) => m.data !== "[DONE]")
      .map((m) => JSON.parse(m.data).choices[0]);
    expect(chunks.some((c) => c.delta.function_call !== undefined)).toBe(false);
    expect(chunks.at(-1).finish_reason).toBe("tool_calls");
  });
});
