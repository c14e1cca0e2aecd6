import type { Request, Warning } from "@interlingua/core-types";
import * as canonical from "@interlingua/core-types/testing";
import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { rejection } from "../test/rejection.js";
import { parseChatRequest } from "./parse-chat-request.js";
import { renderChatRequest } from "./render-chat-request.js";
import { fc } from "./testing.js";

const base = { model: "txtA-5", messages: [{ role: "user", content: "hi" }] };

const minimal = (over: Partial<Request> = {}): Request => ({
  model: "txtA-5",
  system: [],
  messages: [{ role: "user", parts: [{ type: "text", text: "hi" }] }],
  sampling: {},
  tools: [],
  stream: false,
  ...over,
});

describe("several system messages", () => {
  it("are kept in order in request.system and rendered back in order", () => {
    const request = parseChatRequest({
      model: "txtA-5",
      messages: [
        { role: "system", content: "first" },
        { role: "user", content: "hi" },
        { role: "developer", content: "second" },
        {
          role: "system",
          content: [
            { type: "text", text: "third" },
            { type: "text", text: "fourth", cache_control: { type: "ephemeral", ttl: "1h" } },
          ],
        },
      ],
    });
    expect(request.system).toStrictEqual([
      { type: "text", text: "first" },
      { type: "text", text: "second" },
      { type: "text", text: "third" },
      { type: "text", text: "fourth", cacheControl: { type: "ephemeral", ttl: "1h" } },
    ]);
    expect(request.messages).toStrictEqual([
      { role: "user", parts: [{ type: "text", text: "hi" }] },
    ]);
    expect(renderChatRequest(request).messages).toStrictEqual([
      { role: "system", content: "first" },
      { role: "system", content: "second" },
      { role: "system", content: "third" },
      {
        role: "system",
        content: [
          { type: "text", text: "fourth", cache_control: { type: "ephemeral", ttl: "1h" } },
        ],
      },
      { role: "user", content: "hi" },
    ]);
  });
});

describe("images as URL and as base64 data URI", () => {
  const wireContent = [
    { type: "image_url", image_url: { url: "https://example.com/cat.png", detail: "high" } },
    { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
    { type: "text", text: "what is this?" },
  ];
  const parts = [
    {
      type: "image",
      source: { type: "url", url: "https://example.com/cat.png" },
      detail: "high",
    },
    { type: "image", source: { type: "base64", mediaType: "image/png", data: "iVBORw0KGgo=" } },
    { type: "text", text: "what is this?" },
  ];

  it("parse to canonical url and base64 sources", () => {
    const request = parseChatRequest({
      model: "txtA-5",
      messages: [{ role: "user", content: wireContent }],
    });
    expect(request.messages).toStrictEqual([{ role: "user", parts }]);
  });

  it("render back to the same URL and data URI", () => {
    const request = parseChatRequest({
      model: "txtA-5",
      messages: [{ role: "user", content: wireContent }],
    });
    expect(renderChatRequest(request).messages).toStrictEqual([
      { role: "user", content: wireContent },
    ]);
  });

  it("refuse anything else naming the url field", () => {
    const error = rejection(() =>
      parseChatRequest({
        model: "txtA-5",
        messages: [
          { role: "user", content: [{ type: "image_url", image_url: { url: "ftp://x/y.png" } }] },
        ],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe("messages[0].content[0].image_url.url");
  });
});

describe("validation: a 400 naming the field", () => {
  it("n given as a quoted number", () => {
    const error = rejection(() => parseChatRequest({ ...base, n: "2" }));
    expect(error.status).toBe(400);
    expect(error.type).toBe("invalid_request_error");
    expect(error.param).toBe("n");
    expect(error.message).toContain("bare JSON integer");
    expect(parseChatRequest({ ...base, n: 2 }).sampling.n).toBe(2);
  });

  it.each([
    ["n", 0, "n: must be at least 1 (got 0)"],
    ["max_tokens", 0, "max_tokens: must be at least 1 (got 0)"],
    ["max_tokens", -1, "max_tokens: must be at least 1 (got -1)"],
    ["max_completion_tokens", 0, "max_completion_tokens: must be at least 1 (got 0)"],
    ["top_logprobs", -1, "top_logprobs: must be at least 0 (got -1)"],
    ["top_logprobs", 99, "top_logprobs: must be at most 20 (got 99)"],
    ["n", 1.5, "n: must be an integer"],
  ])("%s: %s out of range says what is wrong, not that it was quoted", (field, value, message) => {
    const error = rejection(() => parseChatRequest({ ...base, [field]: value }));
    expect(error.status).toBe(400);
    expect(error.param).toBe(field);
    expect(error.message).toBe(message);
  });

  it("stop with more than 4 entries", () => {
    const error = rejection(() => parseChatRequest({ ...base, stop: ["a", "b", "c", "d", "e"] }));
    expect(error.status).toBe(400);
    expect(error.param).toBe("stop");
    expect(parseChatRequest({ ...base, stop: ["a", "b", "c", "d"] }).sampling.stop).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
    expect(parseChatRequest({ ...base, stop: "end" }).sampling.stop).toEqual(["end"]);
  });

  it.each([
    ["temperature", -0.1],
    ["temperature", 2.01],
    ["top_p", -0.5],
    ["top_p", 1.5],
    ["frequency_penalty", -2.5],
    ["frequency_penalty", 2.5],
    ["presence_penalty", -3],
    ["presence_penalty", 3],
  ])("%s out of range (%d)", (field, value) => {
    const error = rejection(() => parseChatRequest({ ...base, [field]: value }));
    expect(error.status).toBe(400);
    expect(error.param).toBe(field);
    expect(error.message).toContain(field);
  });

  it("a range's edges are accepted", () => {
    const request = parseChatRequest({
      ...base,
      temperature: 2,
      top_p: 0,
      frequency_penalty: -2,
      presence_penalty: 2,
    });
    expect(request.sampling).toStrictEqual({
      temperature: 2,
      topP: 0,
      frequencyPenalty: -2,
      presencePenalty: 2,
    });
  });

  it("a cache_control ttl other than 5m or 1h", () => {
    const error = rejection(() =>
      parseChatRequest({
        model: "txtA-5",
        messages: [
          { role: "system", content: "s" },
          {
            role: "user",
            content: [
              { type: "text", text: "a" },
              { type: "text", text: "b", cache_control: { type: "ephemeral", ttl: "2h" } },
            ],
          },
        ],
      }),
    );
    expect(error.status).toBe(400);
    expect(error.param).toBe("messages[1].content[1].cache_control.ttl");
  });

  it("a cache_control ttl of 5m, 1h or none becomes part.cacheControl", () => {
    const request = parseChatRequest({
      model: "txtA-5",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "a", cache_control: { type: "ephemeral" } },
            { type: "text", text: "b", cache_control: { type: "ephemeral", ttl: "5m" } },
            { type: "text", text: "c", cache_control: { type: "ephemeral", ttl: "1h" } },
          ],
        },
      ],
    });
    expect(request.messages[0]?.parts).toStrictEqual([
      { type: "text", text: "a", cacheControl: { type: "ephemeral" } },
      { type: "text", text: "b", cacheControl: { type: "ephemeral", ttl: "5m" } },
      { type: "text", text: "c", cacheControl: { type: "ephemeral", ttl: "1h" } },
    ]);
  });

  it("an unknown role, a missing model, a bad tool", () => {
    expect(
      rejection(() =>
        parseChatRequest({ model: "m", messages: [{ role: "critic", content: "x" }] }),
      ).param,
    ).toBe("messages[0].role");
    // The deprecated function role is known: one without its name is refused on the name.
    expect(
      rejection(() =>
        parseChatRequest({ model: "m", messages: [{ role: "function", content: "x" }] }),
      ).param,
    ).toBe("messages[0].name");
    expect(rejection(() => parseChatRequest({ messages: [] })).param).toBe("model");
    expect(
      rejection(() => parseChatRequest({ ...base, tools: [{ type: "function", function: {} }] }))
        .param,
    ).toBe("tools[0].function.name");
  });

  it("input_audio is an audio file part, and chat renders it back as input_audio", () => {
    const wire = {
      model: "txtA-5",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What is said?" },
            { type: "input_audio", input_audio: { data: "AAAA", format: "wav" } },
          ],
        },
      ],
      tool_choice: {
        type: "allowed_tools",
        allowed_tools: { mode: "required", tools: [{ type: "function", function: { name: "f" } }] },
      },
    };
    const request = parseChatRequest(wire);
    expect(request.messages[0]?.parts[1]).toEqual({
      type: "file",
      source: { type: "base64", mediaType: "audio/wav", data: "AAAA" },
    });
    expect(request.toolChoice).toEqual({ type: "required", allowed: ["f"] });
    const out = renderChatRequest(request);
    expect(out.messages).toEqual(wire.messages);
    expect(out.tool_choice).toEqual(wire.tool_choice);
  });

  it("file blocks need exactly one of file_data (a data URI) and file_id", () => {
    const file = (f: object) =>
      parseChatRequest({
        model: "m",
        messages: [{ role: "user", content: [{ type: "file", file: f }] }],
      });
    expect(rejection(() => file({})).param).toBe("messages[0].content[0].file");
    expect(rejection(() => file({ file_id: "f", file_data: "data:a/b;base64,AA==" })).param).toBe(
      "messages[0].content[0].file",
    );
    expect(rejection(() => file({ file_data: "AAAA" })).param).toBe(
      "messages[0].content[0].file.file_data",
    );
    expect(
      file({ file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" }).messages,
    ).toStrictEqual([
      {
        role: "user",
        parts: [
          {
            type: "file",
            source: { type: "base64", mediaType: "application/pdf", data: "JVBERi0=" },
            filename: "a.pdf",
          },
        ],
      },
    ]);
  });

  it("render: OpenAI chat takes PDF files; an image file goes as an image, other types are a 400", () => {
    const request = (mediaType: string): Request => ({
      model: "m",
      system: [],
      messages: [
        {
          role: "user",
          parts: [{ type: "file", source: { type: "base64", mediaType, data: "AAAA" } }],
        },
      ],
      sampling: {},
      tools: [],
      stream: false,
    });
    const warnings: Warning[] = [];
    const image = renderChatRequest(request("image/png"), { onWarning: (w) => warnings.push(w) });
    expect(image.messages[0]).toMatchObject({
      content: [{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }],
    });
    expect(warnings.map((w) => `${w.feature}=${w.type}`)).toContain("parts.file=mapped");
    const zip = rejection(() => renderChatRequest(request("application/zip")));
    expect(zip.param).toBe("messages[0].parts[0].source.mediaType");
    expect(zip.message).toContain("PDF files only");
    // A text file goes as its text: "AAAA" is three NUL characters, valid UTF-8.
    expect(renderChatRequest(request("text/plain")).messages[0]).toMatchObject({
      content: [{ type: "text", text: "\u0000\u0000\u0000" }],
    });
    // OpenAI refuses file_data without a filename ("Missing required parameter"): a placeholder.
    expect(renderChatRequest(request("application/pdf")).messages[0]).toMatchObject({
      content: [
        {
          type: "file",
          file: { file_data: "data:application/pdf;base64,AAAA", filename: "file.pdf" },
        },
      ],
    });
  });

  it("parse throws only 400 GatewayErrors, whatever the input", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({ model: fc.anything(), messages: fc.anything() }),
          fc.record({ model: fc.string(), messages: fc.array(fc.anything(), { maxLength: 3 }) }),
        ),
        (wire) => {
          try {
            parseChatRequest(wire);
          } catch (error) {
            expect(error).toBeInstanceOf(GatewayError);
            expect((error as GatewayError).status).toBe(400);
          }
        },
      ),
    );
  });
});

describe("tools with no arguments", () => {
  it('empty-string arguments become "{}" and are rendered as "{}"', () => {
    const request = parseChatRequest({
      model: "txtA-5",
      messages: [
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "now", arguments: "" } },
            { id: "call_2", type: "function", function: { name: "today", arguments: "{}" } },
          ],
        },
      ],
      tools: [{ type: "function", function: { name: "now" } }],
    });
    expect(request.messages).toStrictEqual([
      {
        role: "assistant",
        parts: [
          { type: "tool-call", id: "call_1", name: "now", arguments: "{}" },
          { type: "tool-call", id: "call_2", name: "today", arguments: "{}" },
        ],
      },
    ]);
    // A function without parameters is a function of no arguments.
    expect(request.tools).toStrictEqual([
      { type: "function", name: "now", parameters: { type: "object", properties: {} } },
    ]);
    const rendered = renderChatRequest(request);
    expect(rendered.messages).toStrictEqual([
      {
        role: "assistant",
        content: "",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "now", arguments: "{}" } },
          { id: "call_2", type: "function", function: { name: "today", arguments: "{}" } },
        ],
      },
    ]);
  });

  it('a canonical call with "" arguments is sent as "{}"', () => {
    const rendered = renderChatRequest(
      minimal({
        messages: [
          { role: "assistant", parts: [{ type: "tool-call", id: "c", name: "f", arguments: "" }] },
        ],
      }),
    );
    expect(rendered.messages[0]).toStrictEqual({
      role: "assistant",
      content: "",
      tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
    });
  });
});

describe("reasoning_content round trip (request)", () => {
  it("an assistant turn's reasoning_content is a thinking part and comes back", () => {
    const wire = {
      model: "txtD-v3.2",
      messages: [
        { role: "user", content: "weather?" },
        {
          role: "assistant",
          content: "",
          reasoning_content: "I should call the tool.",
          tool_calls: [
            { id: "call_0", type: "function", function: { name: "weather", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "call_0", content: "sunny" },
      ],
    };
    const request = parseChatRequest(wire);
    expect(request.messages[1]).toStrictEqual({
      role: "assistant",
      parts: [
        { type: "thinking", text: "I should call the tool." },
        { type: "tool-call", id: "call_0", name: "weather", arguments: "{}" },
      ],
    });
    expect(renderChatRequest(request).messages).toStrictEqual(wire.messages);
  });
});

describe("tool messages", () => {
  it("consecutive tool messages form one canonical tool turn and render back one by one", () => {
    const messages = [
      { role: "tool", tool_call_id: "a", content: "1" },
      {
        role: "tool",
        tool_call_id: "b",
        content: [
          { type: "text", text: "2" },
          { type: "text", text: "3" },
        ],
      },
    ];
    const request = parseChatRequest({ model: "m", messages });
    expect(request.messages).toStrictEqual([
      {
        role: "tool",
        parts: [
          { type: "tool-result", toolCallId: "a", content: [{ type: "text", text: "1" }] },
          {
            type: "tool-result",
            toolCallId: "b",
            content: [
              { type: "text", text: "2" },
              { type: "text", text: "3" },
            ],
          },
        ],
      },
    ]);
    expect(renderChatRequest(request).messages).toStrictEqual(messages);
  });
  // Regression (law 5): chat -> canonical lost the tool's name, which the call id implies; a native
  // upstream matches results by name, and every other format re-derives it.
  it("a tool result is named after the earlier call its tool_call_id answers", () => {
    const request = parseChatRequest({
      model: "m",
      messages: [
        { role: "user", content: "weather?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } },
          ],
        },
        { role: "tool", tool_call_id: "c1", content: "21C" },
        { role: "tool", tool_call_id: "unknown", content: "?" },
      ],
    });
    expect(request.messages[2]).toStrictEqual({
      role: "tool",
      parts: [
        {
          type: "tool-result",
          toolCallId: "c1",
          name: "get_weather",
          content: [{ type: "text", text: "21C" }],
        },
        { type: "tool-result", toolCallId: "unknown", content: [{ type: "text", text: "?" }] },
      ],
    });
  });
  // Regression (law 2, seed 974157988): a result named as its call lost nothing, yet was warned.
  it("warns a result's name only when it is not its call's", () => {
    const turn = (name: string): Request => ({
      model: "m",
      system: [],
      sampling: {},
      tools: [],
      stream: false,
      messages: [
        { role: "assistant", parts: [{ type: "tool-call", id: "c1", name: "a", arguments: "{}" }] },
        {
          role: "tool",
          parts: [
            { type: "tool-result", toolCallId: "c1", name, content: [{ type: "text", text: "" }] },
          ],
        },
      ],
    });
    const warned = (request: Request) => {
      const warnings: Warning[] = [];
      renderChatRequest(request, { onWarning: (w) => warnings.push(w) });
      return warnings.map((w) => `${w.feature}=${w.type}`);
    };
    expect(warned(turn("a"))).toEqual([]);
    expect(warned(turn("b"))).toEqual(["messages[1].parts[0].name=dropped"]);
  });
});

describe("request fields", () => {
  it("every field maps to its canonical place", () => {
    const request = parseChatRequest({
      model: "txtA-5",
      messages: [{ role: "user", content: "hi", name: "ann" }],
      temperature: 0.5,
      top_p: 0.9,
      frequency_penalty: 0.1,
      presence_penalty: -0.1,
      stop: ["x"],
      n: 2,
      max_completion_tokens: 100,
      seed: 7,
      user: "u-1",
      tools: [
        {
          type: "function",
          function: { name: "f", description: "d", parameters: { type: "object" }, strict: true },
        },
        { type: "custom", custom: { name: "grammar" } },
      ],
      tool_choice: { type: "function", function: { name: "f" } },
      parallel_tool_calls: false,
      response_format: {
        type: "json_schema",
        json_schema: { name: "out", schema: { type: "object" }, strict: true },
      },
      stream: true,
      stream_options: { include_usage: true },
      reasoning_effort: "low",
      metadata: { tag: "a" },
      web_search_options: { search_context_size: "low" },
      logprobs: true,
      top_logprobs: 3,
      store: false,
    });
    expect(request).toStrictEqual({
      model: "txtA-5",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "hi" }], name: "ann" }],
      sampling: {
        temperature: 0.5,
        topP: 0.9,
        maxTokens: 100,
        stop: ["x"],
        frequencyPenalty: 0.1,
        presencePenalty: -0.1,
        seed: 7,
        n: 2,
      },
      tools: [
        {
          type: "function",
          name: "f",
          parameters: { type: "object" },
          description: "d",
          strict: true,
        },
        {
          type: "provider",
          provider: "openai",
          name: "custom",
          // Flat, as the Responses API sends it (core-types client-tools.ts).
          options: { name: "grammar" },
        },
        { type: "web_search", options: { search_context_size: "low" } },
      ],
      toolChoice: { type: "tool", name: "f" },
      parallelToolCalls: false,
      thinking: { type: "enabled", effort: "low" },
      responseFormat: {
        type: "json-schema",
        name: "out",
        schema: { type: "object" },
        strict: true,
      },
      stream: true,
      user: "u-1",
      metadata: { tag: "a" },
      logprobs: true,
      topLogprobs: 3,
      providerExtras: { openai: { includeUsage: true } },
      extras: { chat: { store: false } },
    });
  });

  it.each([
    ["auto", { type: "auto" }],
    ["none", { type: "none" }],
    ["required", { type: "required" }],
    [
      { type: "function", function: { name: "f" } },
      { type: "tool", name: "f" },
    ],
    [
      {
        type: "allowed_tools",
        allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "f" } }] },
      },
      { type: "auto", allowed: ["f"] },
    ],
  ])("tool_choice %j <-> %j", (wire, choice) => {
    const request = parseChatRequest({ ...base, tool_choice: wire });
    expect(request.toolChoice).toStrictEqual(choice);
    expect(request.extras?.chat?.["tool_choice"]).toBeUndefined();
    expect(renderChatRequest(request).tool_choice).toStrictEqual(wire);
  });

  it("allowed_tools naming a custom tool is the canonical list, and carried as sent", () => {
    const wire = {
      type: "allowed_tools",
      allowed_tools: {
        mode: "required",
        tools: [
          { type: "function", function: { name: "f" } },
          { type: "custom", custom: { name: "patch" } },
        ],
      },
    };
    const request = parseChatRequest({ ...base, tool_choice: wire });
    expect(request.toolChoice).toStrictEqual({ type: "required", allowed: ["f", "patch"] });
    expect(request.extras?.chat?.["tool_choice"]).toStrictEqual(wire);
    expect(renderChatRequest(request).tool_choice).toStrictEqual(wire);
  });

  it("a custom tool is flat canonically, nested again on chat; the choice names it custom", () => {
    const tools = [
      { type: "function", function: { name: "f", parameters: { type: "object" } } },
      { type: "custom", custom: { name: "patch", description: "Applies a patch" } },
    ];
    const request = parseChatRequest({ ...base, tools });
    expect(request.tools[1]).toStrictEqual({
      type: "provider",
      provider: "openai",
      name: "custom",
      options: { name: "patch", description: "Applies a patch" },
    });
    // Not carried: rendered from the canonical list, which knows `patch` is custom by its tool.
    const rendered = renderChatRequest({
      ...request,
      toolChoice: { type: "auto", allowed: ["patch"] },
    });
    expect(rendered.tools).toStrictEqual(tools);
    expect(rendered.tool_choice).toStrictEqual({
      type: "allowed_tools",
      allowed_tools: { mode: "auto", tools: [{ type: "custom", custom: { name: "patch" } }] },
    });
  });

  it("a custom tool's call: raw input both ways, in history and in a reply", () => {
    const call = { id: "c1", type: "custom", custom: { name: "patch", input: "*** Begin" } };
    const request = parseChatRequest({
      ...base,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: null, tool_calls: [call] },
        { role: "tool", tool_call_id: "c1", content: "done" },
      ],
    });
    expect(request.messages[1]?.parts).toStrictEqual([
      { type: "tool-call", id: "c1", name: "patch", arguments: "*** Begin", custom: true },
    ]);
    expect(renderChatRequest(request).messages[1]).toMatchObject({ tool_calls: [call] });
  });

  it.each([
    ["none", { type: "disabled" }],
    ["minimal", { type: "enabled", effort: "minimal" }],
    ["low", { type: "enabled", effort: "low" }],
    ["medium", { type: "enabled", effort: "medium" }],
    ["high", { type: "enabled", effort: "high" }],
  ])("reasoning_effort %s <-> %j", (effort, thinking) => {
    const request = parseChatRequest({ ...base, reasoning_effort: effort });
    expect(request.thinking).toStrictEqual(thinking);
    expect(renderChatRequest(request).reasoning_effort).toBe(effort);
  });

  it("a reasoning_effort level the canonical model cannot name passes through in extras", () => {
    const request = parseChatRequest({ ...base, reasoning_effort: "xhigh" });
    expect(request.thinking).toBeUndefined();
    expect(request.extras).toStrictEqual({ chat: { reasoning_effort: "xhigh" } });
    expect(renderChatRequest(request).reasoning_effort).toBe("xhigh");
  });

  it("a thinking budget is sent as the nearest effort, with a mapped warning", () => {
    const warnings: Warning[] = [];
    const wire = renderChatRequest(minimal({ thinking: { type: "enabled", budgetTokens: 8000 } }), {
      onWarning: (w) => warnings.push(w),
    });
    expect(wire.reasoning_effort).toBe("medium");
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([["mapped", "thinking.budgetTokens"]]);
  });

  it("max_tokens and max_completion_tokens", () => {
    expect(parseChatRequest({ ...base, max_tokens: 10 }).sampling.maxTokens).toBe(10);
    expect(parseChatRequest({ ...base, max_completion_tokens: 20 }).sampling.maxTokens).toBe(20);
    const both = parseChatRequest({ ...base, max_tokens: 10, max_completion_tokens: 20 });
    expect(both.sampling.maxTokens).toBe(20);
    expect(both.extras).toStrictEqual({ chat: { max_tokens: 10 } });
    const rendered = renderChatRequest(both);
    expect([rendered.max_tokens, rendered.max_completion_tokens]).toEqual([10, 20]);
    const deepseek = renderChatRequest(minimal({ sampling: { maxTokens: 30 } }), {
      maxTokensField: "max_tokens",
    });
    expect([deepseek.max_tokens, deepseek.max_completion_tokens]).toEqual([30, undefined]);
  });

  it("null means unset", () => {
    const request = parseChatRequest({
      ...base,
      temperature: null,
      stop: null,
      n: null,
      tools: null,
      stream: null,
    });
    expect(request).toStrictEqual(parseChatRequest(base));
  });

  it("unknown top-level fields go to extras.chat and come back", () => {
    const request = parseChatRequest({
      ...base,
      logit_bias: { "50256": -100 },
      prompt_cache_key: "k",
    });
    expect(request.extras).toStrictEqual({
      chat: { logit_bias: { "50256": -100 }, prompt_cache_key: "k" },
    });
    const wire = renderChatRequest(request);
    expect(wire.logit_bias).toStrictEqual({ "50256": -100 });
    expect(wire.prompt_cache_key).toBe("k");
  });
});

describe("render toward an upstream", () => {
  it("a streaming request always asks for the usage chunk", () => {
    const wire = renderChatRequest(minimal({ stream: true }));
    expect(wire.stream).toBe(true);
    expect(wire.stream_options).toStrictEqual({ include_usage: true });
    expect(
      renderChatRequest(
        minimal({ stream: true, providerExtras: { openai: { includeUsage: false } } }),
      ).stream_options,
    ).toEqual({ include_usage: true });
    expect(renderChatRequest(minimal()).stream_options).toBeUndefined();
  });

  it("refuses what chat cannot express, naming the canonical field", () => {
    const refusals: [Request, string][] = [
      [minimal({ sampling: { stop: ["a", "b", "c", "d", "e"] } }), "stop"],
      [
        minimal({
          messages: [
            {
              role: "user",
              parts: [{ type: "file", source: { type: "url", url: "https://x/a.pdf" } }],
            },
          ],
        }),
        "messages[0].parts[0].source",
      ],
      [minimal({ tools: [{ type: "remote_mcp", url: "https://mcp", timeout: 30 }] }), "tools[0]"],
      [minimal({ tools: [{ type: "file_search" }] }), "tools[0]"],
      [
        minimal({
          tools: [{ type: "provider", provider: "anthropic", name: "bash_20241022", options: {} }],
        }),
        "tools[0]",
      ],
    ];
    for (const [request, param] of refusals) {
      const error = rejection(() => renderChatRequest(request));
      expect(error.status).toBe(400);
      expect(error.param).toBe(param);
    }
  });

  it("drops what chat has no place for, with a warning for each", () => {
    const warnings: Warning[] = [];
    renderChatRequest(
      minimal({
        system: [{ type: "text", text: "s", signature: "sig" }],
        messages: [
          {
            role: "assistant",
            parts: [
              { type: "thinking", text: "t", signature: "sig" },
              { type: "redacted-thinking", data: "x" },
            ],
          },
          {
            role: "tool",
            parts: [
              {
                type: "tool-result",
                toolCallId: "c",
                name: "f",
                isError: true,
                content: [{ type: "image", source: { type: "url", url: "https://x/y.png" } }],
              },
            ],
          },
        ],
        sampling: { topK: 5 },
        providerExtras: { gemini: { cachedContent: "cachedContents/x", safetySettings: [] } },
      }),
      { onWarning: (w) => warnings.push(w) },
    );
    expect(warnings.map((w) => `${w.type} ${w.feature}`)).toEqual([
      "dropped system[0].signature",
      "dropped messages[0].parts[0].signature",
      "dropped messages[0].parts[1]",
      "dropped messages[1].parts[0].isError",
      "dropped messages[1].parts[0].name",
      "mapped messages[1].parts[0].content[0]",
      "dropped sampling.topK",
      "dropped cachedContent",
      "dropped safetySettings",
    ]);
  });

  it("a tool result's cache boundary moves to its last block", () => {
    const warnings: Warning[] = [];
    const wire = renderChatRequest(
      minimal({
        messages: [
          {
            role: "tool",
            parts: [
              {
                type: "tool-result",
                toolCallId: "c",
                content: [{ type: "text", text: "r" }],
                cacheControl: { type: "ephemeral", ttl: "1h" },
              },
            ],
          },
        ],
      }),
      { onWarning: (w) => warnings.push(w) },
    );
    expect(wire.messages).toStrictEqual([
      {
        role: "tool",
        tool_call_id: "c",
        content: [{ type: "text", text: "r", cache_control: { type: "ephemeral", ttl: "1h" } }],
      },
    ]);
    expect(warnings.map((w) => w.type)).toEqual(["mapped"]);
  });

  it("never throws anything but a 400 on any canonical request", () => {
    fc.assert(
      fc.property(canonical.request, (request) => {
        try {
          renderChatRequest(request);
        } catch (error) {
          expect(error).toBeInstanceOf(GatewayError);
          expect((error as GatewayError).status).toBe(400);
        }
      }),
    );
  });
});

// Issue 26, item 10: what every upstream refuses is a 400 at parse, naming the field.
describe("parseChatRequest refuses what no upstream takes", () => {
  const refusal = (wire: unknown) => {
    try {
      parseChatRequest(wire);
    } catch (error) {
      return error as { status: number; param?: string };
    }
    throw new Error("expected a 400");
  };
  it("no messages", () => {
    expect(refusal({ model: "m", messages: [] })).toMatchObject({ status: 400, param: "messages" });
  });
  it("history tool-call arguments that are not JSON", () => {
    const wire = {
      model: "m",
      messages: [
        { role: "user", content: "go" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{oops" } }],
        },
      ],
    };
    expect(refusal(wire)).toMatchObject({
      status: 400,
      param: "messages[1].tool_calls[0].function.arguments",
    });
  });
});

// Audit of Anthropic clients on chat models: an image a tool returned (a screenshot tool's
// answer) was dropped, since chat tool messages carry text only. It now follows the results in
// a user message, after a line naming its call, so the model still sees it.
describe("images in tool results", () => {
  it("follow the tool messages in one user message, each after its call's id", () => {
    const png = { type: "base64" as const, mediaType: "image/png", data: "AAAA" };
    const request = minimal({
      messages: [
        { role: "user", parts: [{ type: "text", text: "look" }] },
        {
          role: "assistant",
          parts: [
            { type: "tool-call", id: "c1", name: "shot", arguments: "{}" },
            { type: "tool-call", id: "c2", name: "shot", arguments: "{}" },
          ],
        },
        {
          role: "tool",
          parts: [
            {
              type: "tool-result",
              toolCallId: "c1",
              content: [
                { type: "text", text: "done" },
                { type: "image", source: png },
              ],
            },
            {
              type: "tool-result",
              toolCallId: "c2",
              content: [{ type: "image", source: { type: "url", url: "https://x.test/a.png" } }],
            },
          ],
        },
      ],
    });
    const warnings: Warning[] = [];
    const out = renderChatRequest(request, { onWarning: (w) => warnings.push(w) });
    expect(out.messages.slice(2)).toStrictEqual([
      { role: "tool", tool_call_id: "c1", content: "done" },
      { role: "tool", tool_call_id: "c2", content: "" },
      {
        role: "user",
        content: [
          { type: "text", text: "Image from tool call c1:" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          { type: "text", text: "Image from tool call c2:" },
          { type: "image_url", image_url: { url: "https://x.test/a.png" } },
        ],
      },
    ]);
    expect(warnings.map((w) => `${w.feature}=${w.type}`)).toStrictEqual([
      "messages[2].parts[0].content[1]=mapped",
      "messages[2].parts[1].content[0]=mapped",
    ]);
  });
});
