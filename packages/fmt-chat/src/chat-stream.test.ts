import {
  accumulateStream,
  outputsOf,
  type SseMessage,
  type StreamEvent,
  type Warning,
} from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { expectWellBracketed } from "../test/bracketing.js";
import { decodeChatMessages, decodeChatStream } from "./parse-chat-stream.js";
import { encodeChatEvents, encodeChatStream } from "./render-chat-stream.js";
import { chatChunksToSse } from "./testing.js";

const head = {
  id: "chatcmpl-9",
  object: "chat.completion.chunk",
  created: 1_700_000_000,
  model: "txtA-5",
};
const chunk = (delta: object, finish: string | null = null, index = 0) => ({
  ...head,
  choices: [{ index, delta, finish_reason: finish }],
});
const call = (index: number, fields: object) => chunk({ tool_calls: [{ index, ...fields }] });
const usage = {
  prompt_tokens: 120,
  completion_tokens: 30,
  total_tokens: 150,
  prompt_tokens_details: { cached_tokens: 100 },
  completion_tokens_details: { reasoning_tokens: 10 },
};
const canonicalUsage = {
  inputTokens: 120,
  outputTokens: 30,
  cachedInputTokens: 100,
  cacheWriteTokens: 0,
  thinkingTokens: 10,
};
const start: StreamEvent = {
  type: "response-start",
  id: "chatcmpl-9",
  model: "txtA-5",
  created: 1_700_000_000,
};
const decode = (chunks: object[]) => decodeChatMessages(chatChunksToSse(chunks));

describe("a content delta of megabytes", () => {
  it("is read whole, by the general path (the compact pattern would run out of stack)", () => {
    const text = "A1e5+/9E7z \u00e9".repeat(1_300_000);
    const chunk = (delta: Record<string, unknown>) =>
      JSON.stringify({
        id: "c",
        object: "chat.completion.chunk",
        created: 1,
        model: "m",
        choices: [{ index: 0, delta, logprobs: null, finish_reason: null }],
      });
    const events = decodeChatMessages([
      { data: chunk({ role: "assistant", content: "" }) },
      { data: chunk({ content: text }) },
      { data: "[DONE]" },
    ]);
    const deltas = events.filter((e) => e.type === "text-delta");
    expect(deltas.map((e) => (e.type === "text-delta" ? e.delta : "")).join("")).toBe(text);
  });
});

describe("parallel tool calls and their argument deltas", () => {
  it("sequential calls (OpenAI): one part each, arguments in order, id and name from the first fragment", () => {
    const events = decode([
      chunk({ role: "assistant", content: null }),
      call(0, { id: "call_a", type: "function", function: { name: "weather", arguments: "" } }),
      call(0, { function: { arguments: '{"city":' } }),
      call(0, { function: { arguments: '"Paris"}' } }),
      call(1, { id: "call_b", type: "function", function: { name: "time", arguments: "" } }),
      call(1, { function: { arguments: '{"tz":"CET"}' } }),
      chunk({}, "tool_calls"),
      { ...head, choices: [], usage },
    ]);
    expect(events).toStrictEqual([
      start,
      { type: "tool-call-start", index: 0, id: "call_a", name: "weather" },
      { type: "tool-arguments-delta", index: 0, delta: '{"city":' },
      { type: "tool-arguments-delta", index: 0, delta: '"Paris"}' },
      { type: "part-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "call_b", name: "time" },
      { type: "tool-arguments-delta", index: 1, delta: '{"tz":"CET"}' },
      { type: "part-end", index: 1 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } },
      { type: "usage", usage: canonicalUsage },
    ]);
  });

  it("interleaved fragments of several indices still land on the right call", () => {
    const events = decode([
      chunk({ role: "assistant", content: "Checking." }),
      chunk({
        tool_calls: [
          { index: 0, id: "call_a", type: "function", function: { name: "a", arguments: '{"x"' } },
          { index: 1, id: "call_b", type: "function", function: { name: "b", arguments: "" } },
        ],
      }),
      call(1, { function: { arguments: '{"y":2' } }),
      call(0, { function: { arguments: ":1}" } }),
      call(1, { function: { arguments: "}" } }),
      chunk({}, "tool_calls"),
    ]);
    expectWellBracketed(events);
    expect(events).toStrictEqual([
      start,
      { type: "part-start", index: 0, kind: "text" },
      { type: "text-delta", index: 0, delta: "Checking." },
      { type: "part-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "call_a", name: "a" },
      { type: "tool-arguments-delta", index: 1, delta: '{"x"' },
      { type: "tool-call-start", index: 2, id: "call_b", name: "b" },
      { type: "tool-arguments-delta", index: 2, delta: '{"y":2' },
      { type: "tool-arguments-delta", index: 1, delta: ":1}" },
      { type: "part-end", index: 1 },
      { type: "tool-arguments-delta", index: 2, delta: "}" },
      { type: "part-end", index: 2 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    ]);
    expect(accumulateStream(events).message.parts).toStrictEqual([
      { type: "text", text: "Checking." },
      { type: "tool-call", id: "call_a", name: "a", arguments: '{"x":1}' },
      { type: "tool-call", id: "call_b", name: "b", arguments: '{"y":2}' },
    ]);
  });

  it("encode numbers tool calls 0, 1, 2 per choice, not by part index", () => {
    const messages = encodeChatEvents([
      start,
      { type: "part-start", index: 0, kind: "text" },
      { type: "text-delta", index: 0, delta: "Hi" },
      { type: "part-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "call_a", name: "a" },
      { type: "tool-arguments-delta", index: 1, delta: "{}" },
      { type: "part-end", index: 1 },
      { type: "tool-call-start", index: 2, id: "call_b", name: "b" },
      { type: "tool-arguments-delta", index: 2, delta: '{"k":1}' },
      { type: "part-end", index: 2 },
      { type: "finish", finishReason: { unified: "tool-calls" } },
    ]);
    expect(messages.map((m) => (m.data === "[DONE]" ? m.data : JSON.parse(m.data)))).toStrictEqual([
      chunk({ role: "assistant", content: "" }),
      chunk({ content: "Hi" }),
      call(0, { id: "call_a", type: "function", function: { name: "a", arguments: "" } }),
      call(0, { function: { arguments: "{}" } }),
      call(1, { id: "call_b", type: "function", function: { name: "b", arguments: "" } }),
      call(1, { function: { arguments: '{"k":1}' } }),
      chunk({}, "tool_calls"),
      "[DONE]",
    ]);
  });
});

describe("tools with no arguments (stream)", () => {
  it('a call whose arguments never arrive gets "{}" when it closes', () => {
    const events = decode([
      call(0, { id: "call_a", type: "function", function: { name: "now", arguments: "" } }),
      chunk({}, "tool_calls"),
    ]);
    expect(events.slice(1)).toStrictEqual([
      { type: "tool-call-start", index: 0, id: "call_a", name: "now" },
      { type: "tool-arguments-delta", index: 0, delta: "{}" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    ]);
  });

  it('"{}" in the first fragment (Groq) closes the call at once', () => {
    const events = decode([
      call(0, { id: "tk", type: "function", function: { name: "weather", arguments: "{}" } }),
      chunk({}, "tool_calls"),
    ]);
    expect(events.slice(1, 4)).toStrictEqual([
      { type: "tool-call-start", index: 0, id: "tk", name: "weather" },
      { type: "tool-arguments-delta", index: 0, delta: "{}" },
      { type: "part-end", index: 0 },
    ]);
  });
});

describe("the usage chunk after the finish chunk", () => {
  const chunks = [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "Hello" }),
    chunk({}, "stop"),
    { ...head, choices: [], usage },
  ];

  it("is not lost: the usage event follows the finish", () => {
    const events = decode(chunks);
    expect(events.slice(-2)).toStrictEqual([
      { type: "finish", finishReason: { unified: "stop", raw: "stop" } },
      { type: "usage", usage: canonicalUsage },
    ]);
  });

  it("is not lost through a TransformStream either, with [DONE] after it", async () => {
    const events: StreamEvent[] = [];
    await new ReadableStream<SseMessage>({
      start(controller) {
        for (const message of chatChunksToSse(chunks)) controller.enqueue(message);
        controller.close();
      },
    })
      .pipeThrough(decodeChatStream())
      .pipeTo(new WritableStream({ write: (event) => void events.push(event) }));
    expect(events.at(-1)).toStrictEqual({ type: "usage", usage: canonicalUsage });
  });

  it("usage riding on the finish chunk (DeepSeek) comes after the finish event", () => {
    const events = decode([chunk({ content: "x" }), { ...chunk({}, "stop"), usage }]);
    expect(events.slice(-2).map((e) => e.type)).toEqual(["finish", "usage"]);
  });

  it("encode holds usage to the end and writes the choices: [] chunk when asked, then [DONE]", () => {
    const events: StreamEvent[] = [
      start,
      { type: "text-delta", index: 0, delta: "Hello" },
      { type: "usage", usage: { ...canonicalUsage, serviceTier: "default" } },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" } },
    ];
    const withUsage = encodeChatEvents(events, {
      providerExtras: { openai: { includeUsage: true } },
    });
    expect(withUsage.slice(-2)).toStrictEqual([
      {
        data: JSON.stringify({
          ...head,
          choices: [],
          usage: {
            prompt_tokens: 120,
            completion_tokens: 30,
            total_tokens: 150,
            prompt_tokens_details: { cached_tokens: 100, cache_write_tokens: 0 },
            completion_tokens_details: { reasoning_tokens: 10 },
          },
          service_tier: "default",
        }),
      },
      { data: "[DONE]" },
    ]);
    const without = encodeChatEvents(events);
    expect(without.map((m) => m.data).some((d) => d.includes("prompt_tokens"))).toBe(false);
    expect(without.at(-1)).toStrictEqual({ data: "[DONE]" });
  });
});

describe("reasoning_content round trip (stream)", () => {
  it("reasoning deltas are a thinking part, then content a text part, and encode back", () => {
    const chunks = [
      chunk({ role: "assistant", content: null, reasoning_content: "" }),
      chunk({ content: null, reasoning_content: "Count" }),
      chunk({ content: null, reasoning_content: " them." }),
      chunk({ content: "3", reasoning_content: null }),
      chunk({ content: "", reasoning_content: null }, "stop"),
    ];
    const events = decode(chunks);
    expect(events).toStrictEqual([
      start,
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "Count" },
      { type: "thinking-delta", index: 0, delta: " them." },
      { type: "part-end", index: 0 },
      { type: "part-start", index: 1, kind: "text" },
      { type: "text-delta", index: 1, delta: "3" },
      { type: "part-end", index: 1 },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" } },
    ]);
    const encoded = encodeChatEvents(events).map((m) => m.data);
    expect(encoded).toStrictEqual([
      JSON.stringify(chunk({ role: "assistant", content: "" })),
      JSON.stringify(chunk({ reasoning_content: "Count" })),
      JSON.stringify(chunk({ reasoning_content: " them." })),
      JSON.stringify(chunk({ content: "3" })),
      JSON.stringify(chunk({}, "stop")),
      "[DONE]",
    ]);
    expect(decodeChatMessages(encoded.map((data) => ({ data })))).toStrictEqual(events);
  });

  it("signatures and redacted thinking are reasoning_details chunks, decoded back", () => {
    const warnings: Warning[] = [];
    const events: StreamEvent[] = [
      start,
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "t" },
      { type: "signature-delta", index: 0, signature: "sig" },
      { type: "part-end", index: 0 },
      { type: "redacted-thinking", index: 1, data: "x" },
      { type: "part-end", index: 1 },
    ];
    const encoded = encodeChatEvents(events, { onWarning: (w) => warnings.push(w) });
    expect(warnings).toEqual([]);
    expect(encoded.map((m) => m.data)).toContain(
      JSON.stringify(
        chunk({
          reasoning_details: [{ type: "reasoning.text", text: "t", signature: "sig", index: 0 }],
        }),
      ),
    );
    expect(decodeChatMessages(encoded)).toStrictEqual(events);
  });
});

describe("several choices (n > 1)", () => {
  it("carry the alternative field (omitted for choice 0) in both directions", () => {
    const chunks = [
      chunk({ role: "assistant", content: "" }, null, 0),
      chunk({ role: "assistant", content: "" }, null, 1),
      chunk({ content: "A" }, null, 0),
      chunk({ content: "B" }, null, 1),
      chunk({}, "stop", 1),
      chunk({}, "length", 0),
    ];
    const events = decode(chunks);
    expect(events).toStrictEqual([
      start,
      { type: "part-start", index: 0, kind: "text" },
      { type: "text-delta", index: 0, delta: "A" },
      { type: "part-start", index: 0, alternative: 1, kind: "text" },
      { type: "text-delta", index: 0, alternative: 1, delta: "B" },
      { type: "part-end", index: 0, alternative: 1 },
      { type: "finish", alternative: 1, finishReason: { unified: "stop", raw: "stop" } },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "length", raw: "length" } },
    ]);
    expect(encodeChatEvents(events).map((m) => m.data)).toStrictEqual([
      JSON.stringify(chunk({ role: "assistant", content: "" }, null, 0)),
      JSON.stringify(chunk({ content: "A" }, null, 0)),
      JSON.stringify(chunk({ role: "assistant", content: "B" }, null, 1)),
      JSON.stringify(chunk({}, "stop", 1)),
      JSON.stringify(chunk({}, "length", 0)),
      "[DONE]",
    ]);
  });
});

describe("refusal deltas", () => {
  it("become text, and the finish a content filter with the raw reason kept", () => {
    const events = decode([
      chunk({ refusal: "I can't" }),
      chunk({ refusal: " help." }),
      chunk({}, "stop"),
    ]);
    expect(outputsOf(accumulateStream(events))[0]).toStrictEqual({
      index: 0,
      message: { role: "assistant", parts: [{ type: "text", text: "I can't help." }] },
      finishReason: { unified: "content-filter", raw: "stop" },
    });
  });
});

describe("errors and odd input", () => {
  it("an error chunk becomes an error event, not a throw", () => {
    const events = decodeChatMessages([
      { data: JSON.stringify(chunk({ content: "partial" })) },
      {
        data: JSON.stringify({
          error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" },
        }),
      },
    ]);
    expect(events.filter((e) => e.type === "error")).toStrictEqual([
      {
        type: "error",
        error: {
          status: 429,
          type: "rate_limit_error",
          message: "Rate limit reached",
          code: "rate_limit_exceeded",
        },
      },
    ]);
  });

  it("a chunk that is not JSON is an error event; [DONE] ends the stream", () => {
    const events = decodeChatMessages([
      { data: "{not json" },
      { data: "[DONE]" },
      { data: JSON.stringify(chunk({ content: "late" })) },
    ]);
    expect(events.map((e) => e.type)).toEqual(["error"]);
    expect(events[0]).toMatchObject({ error: { status: 502, type: "bad_gateway" } });
  });

  it("encode writes an error event as the spec's chat error body", () => {
    const [first] = encodeChatEvents([
      { type: "error", error: { status: 429, type: "rate_limit_error", message: "slow down" } },
    ]);
    expect(JSON.parse(first?.data ?? "")).toStrictEqual({
      error: { code: 429, message: "slow down", type: "rate_limit_error" },
    });
  });

  it("encode gives an error of another family the standard type of its status", () => {
    const [first] = encodeChatEvents([
      { type: "error", error: { status: 503, type: "overloaded_error", message: "Overloaded" } },
    ]);
    expect(JSON.parse(first?.data ?? "")).toStrictEqual({
      error: { code: 503, message: "Overloaded", type: "service_unavailable" },
    });
  });

  it("a stream cut before its finish still closes its parts", () => {
    const events = decode([
      chunk({ content: "half" }),
      call(0, { id: "c", function: { name: "f", arguments: '{"a' } }),
    ]);
    expectWellBracketed(events);
    expect(events.at(-1)).toStrictEqual({ type: "part-end", index: 1 });
  });
});

describe("no buffering", () => {
  it("decode: each chunk's events can be read before the next chunk is written", async () => {
    const stream = decodeChatStream();
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    void writer.write({ data: JSON.stringify(chunk({ content: "a" })) });
    expect((await reader.read()).value).toStrictEqual(start);
    expect((await reader.read()).value).toStrictEqual({
      type: "part-start",
      index: 0,
      kind: "text",
    });
    expect((await reader.read()).value).toStrictEqual({ type: "text-delta", index: 0, delta: "a" });
    void writer.write({ data: JSON.stringify(chunk({ content: "b" })) });
    expect((await reader.read()).value).toStrictEqual({ type: "text-delta", index: 0, delta: "b" });
  });

  it("encode: each event's chunk can be read before the next event is written", async () => {
    const stream = encodeChatStream({ providerExtras: { openai: { includeUsage: true } } });
    const writer = stream.writable.getWriter();
    const reader = stream.readable.getReader();
    void writer.write(start);
    expect((await reader.read()).value).toStrictEqual({
      data: JSON.stringify(chunk({ role: "assistant", content: "" })),
    });
    void writer.write({ type: "text-delta", index: 0, delta: "x" });
    expect((await reader.read()).value).toStrictEqual({
      data: JSON.stringify(chunk({ content: "x" })),
    });
  });
});
