import { accumulateStream, type StreamEvent, type Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { decodeAll, encodeAll, warnings } from "../test/helpers.js";
import { MessagesStreamEncoder } from "./render-messages-stream.js";

const frame = (payload: { type: string; [key: string]: unknown }) => ({
  event: payload.type,
  data: JSON.stringify(payload),
});

describe("decoding Anthropic streams", () => {
  it("a duplicated message_start does not restart the message; its usage still counts", () => {
    const events = decodeAll([
      frame({
        type: "message_start",
        message: {
          id: "msg_1",
          model: "m",
          content: [],
          usage: { input_tokens: 17, output_tokens: 1 },
        },
      }),
      frame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
      frame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hel" } }),
      frame({
        type: "message_start",
        message: {
          id: "msg_1",
          model: "m",
          content: [],
          usage: { input_tokens: 20, cache_read_input_tokens: 5, output_tokens: 1 },
        },
      }),
      frame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "lo" } }),
      frame({ type: "content_block_stop", index: 0 }),
      frame({
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { output_tokens: 9 },
      }),
      frame({ type: "message_stop" }),
    ]);
    expect(events.filter((e) => e.type === "response-start")).toHaveLength(1);
    const result = accumulateStream(events);
    expect(result.message.parts).toEqual([{ type: "text", text: "Hello" }]);
    expect(result.usage).toEqual({
      inputTokens: 25,
      outputTokens: 9,
      cachedInputTokens: 5,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    });
  });

  it.each([
    ["negative", { input_tokens: -5_000_000 }, { output_tokens: -5_000_000 }],
    ["fractional", { input_tokens: 12 }, { output_tokens: 2.5 }],
    ["a string", { input_tokens: "12" }, { output_tokens: 7 }],
    [
      "a negative cache read",
      { input_tokens: 12, cache_read_input_tokens: -9e6 },
      { output_tokens: 7 },
    ],
  ])(
    "a count that is not a token count (%s) makes the usage unknown, not free",
    (_, start, delta) => {
      const events = decodeAll([
        frame({
          type: "message_start",
          message: { id: "m", model: "m", content: [], usage: start },
        }),
        frame({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
        frame({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } }),
        frame({ type: "content_block_stop", index: 0 }),
        frame({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: delta }),
        frame({ type: "message_stop" }),
      ]);
      const last = events.filter((e) => e.type === "usage").at(-1);
      expect(last).toMatchObject({ type: "usage", usage: { known: false } });
      // Never a negative or fractional count, whatever the upstream wrote.
      for (const e of events)
        if (e.type === "usage")
          for (const n of [e.usage.inputTokens, e.usage.outputTokens, e.usage.cachedInputTokens])
            expect(Number.isSafeInteger(n) && n >= 0).toBe(true);
    },
  );

  it.each([
    ["overloaded_error", 503],
    ["api_error", 500],
    ["rate_limit_error", 429],
    ["invalid_request_error", 400],
    ["authentication_error", 401],
    ["permission_error", 403],
    ["not_found_error", 404],
    ["request_too_large", 413],
    ["billing_error", 402],
    ["timeout_error", 504],
    ["something_new", 500],
  ])("an %s error event becomes a canonical error with status %i", (type, status) => {
    expect(decodeAll([frame({ type: "error", error: { type, message: "Overloaded" } })])).toEqual([
      { type: "error", error: { status, type, message: "Overloaded" } },
    ]);
  });

  it("a frame that is not JSON becomes a 502 error event, not a throw", () => {
    expect(decodeAll([{ event: "message_start", data: "{oops" }])).toEqual([
      {
        type: "error",
        error: {
          status: 502,
          type: "bad_gateway",
          message: "malformed stream event from upstream",
        },
      },
    ]);
  });

  it("tolerates odd frames without throwing", () => {
    expect(
      decodeAll([
        { data: "null" },
        { data: "[1,2]" },
        { data: '"text"' },
        { data: "" },
        frame({ type: "content_block_delta" }),
        frame({ type: "content_block_start", index: "0" }),
        frame({ type: "future_event" }),
      ]),
    ).toEqual([]);
  });

  it("skips blocks it does not model, with their deltas", () => {
    const events = decodeAll([
      frame({
        type: "message_start",
        message: {
          id: "msg_1",
          model: "m",
          content: [],
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      }),
      frame({
        type: "content_block_start",
        index: 0,
        content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      }),
      frame({
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"query":"x"}' },
      }),
      frame({ type: "content_block_stop", index: 0 }),
      frame({ type: "content_block_start", index: 1, content_block: { type: "text", text: "" } }),
      frame({
        type: "content_block_delta",
        index: 1,
        delta: { type: "citations_delta", citation: {} },
      }),
      frame({ type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "ok" } }),
      frame({ type: "content_block_stop", index: 1 }),
    ]);
    expect(events.slice(2)).toEqual([
      { type: "part-start", index: 1, kind: "text" },
      { type: "text-delta", index: 1, delta: "ok" },
      { type: "part-end", index: 1 },
    ]);
  });

  it("redacted thinking arrives whole in content_block_start", () => {
    expect(
      decodeAll([
        frame({
          type: "content_block_start",
          index: 0,
          content_block: { type: "redacted_thinking", data: "EmwKAhgB" },
        }),
        frame({ type: "content_block_stop", index: 0 }),
      ]),
    ).toEqual([
      { type: "redacted-thinking", index: 0, data: "EmwKAhgB" },
      { type: "part-end", index: 0 },
    ]);
  });
});

describe("a delta of megabytes", () => {
  it("is read whole, by the general path (the compact pattern would run out of stack)", () => {
    const text = "A1e5+/9E7z \u00e9".repeat(1_300_000);
    const delta = { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } };
    const events = decodeAll([
      {
        event: "message_start",
        data: JSON.stringify({
          type: "message_start",
          message: {
            id: "m",
            model: "x",
            content: [],
            usage: { input_tokens: 1, output_tokens: 0 },
          },
        }),
      },
      {
        event: "content_block_start",
        data: JSON.stringify({
          type: "content_block_start",
          index: 0,
          content_block: { type: "text", text: "" },
        }),
      },
      { event: "content_block_delta", data: JSON.stringify(delta) },
    ]);
    const deltas = events.filter((e) => e.type === "text-delta");
    expect(deltas.map((e) => (e.type === "text-delta" ? e.delta : "")).join("")).toBe(text);
  });
});

describe("encoding for messages clients", () => {
  const events: StreamEvent[] = [
    { type: "response-start", id: "msg_9", model: "txtA-5", created: 1 },
    { type: "part-start", index: 0, kind: "thinking" },
    { type: "thinking-delta", index: 0, delta: "hmm" },
    { type: "signature-delta", index: 0, signature: "c2ln" },
    { type: "part-end", index: 0 },
    { type: "part-start", index: 1, kind: "text" },
    { type: "text-delta", index: 1, delta: "Hi" },
    { type: "part-end", index: 1 },
    { type: "tool-call-start", index: 3, id: "call_1", name: "f" },
    { type: "tool-arguments-delta", index: 3, delta: '{"a":1}' },
    { type: "part-end", index: 3 },
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    {
      type: "usage",
      usage: {
        inputTokens: 10,
        outputTokens: 5,
        cachedInputTokens: 2,
        cacheWriteTokens: 0,
        thinkingTokens: 3,
      },
    },
  ];

  it("frames every event as `event: <type>` with dense block indices, usage and stop reason at the end", () => {
    const frames = encodeAll(events);
    for (const f of frames) expect(JSON.parse(f.data).type).toBe(f.event);
    expect(frames.map((f) => JSON.parse(f.data))).toEqual([
      {
        type: "message_start",
        message: {
          id: "msg_9",
          type: "message",
          role: "assistant",
          model: "txtA-5",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          stop_details: null,
          usage: {
            input_tokens: 0,
            output_tokens: 0,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 0,
            cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
            service_tier: "standard",
            inference_geo: "not_available",
          },
        },
      },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "hmm" } },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "signature_delta", signature: "c2ln" },
      },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Hi" } },
      { type: "content_block_stop", index: 1 },
      {
        type: "content_block_start",
        index: 2,
        content_block: {
          type: "tool_use",
          id: "call_1",
          name: "f",
          input: {},
          caller: { type: "direct" },
        },
      },
      {
        type: "content_block_delta",
        index: 2,
        delta: { type: "input_json_delta", partial_json: '{"a":1}' },
      },
      { type: "content_block_stop", index: 2 },
      {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: {
          input_tokens: 8,
          output_tokens: 5,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 2,
          // Anthropic's MessageDeltaUsage: the counts, no tier, geo or ttl split.
          output_tokens_details: { thinking_tokens: 3 },
        },
      },
      { type: "message_stop" },
    ]);
  });

  it("emits each frame as soon as its event arrives (message_start with the next event)", () => {
    const encoder = new MessagesStreamEncoder();
    const out: unknown[] = [];
    const emit = (m: { data: string }) => out.push(JSON.parse(m.data).type);
    encoder.push({ type: "response-start", id: "a", model: "m", created: 0 }, emit);
    expect(out).toEqual([]);
    encoder.push({ type: "text-delta", index: 0, delta: "x" }, emit);
    expect(out).toEqual(["message_start", "content_block_start", "content_block_delta"]);
  });

  it("message_start carries the input tokens of usage that comes right after the start", () => {
    const usage = {
      inputTokens: 42,
      outputTokens: 1,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    };
    const frames = encodeAll([
      { type: "response-start", id: "a", model: "m", created: 0 },
      { type: "usage", usage },
      { type: "text-delta", index: 0, delta: "x" },
    ]);
    const start = JSON.parse(frames[0]?.data ?? "");
    expect(start.type).toBe("message_start");
    expect(start.message.usage.input_tokens).toBe(42);
  });

  it("interleaved parallel tool calls never leave two blocks open; each call arrives whole", () => {
    const frames = encodeAll([
      { type: "response-start", id: "a", model: "m", created: 0 },
      { type: "tool-call-start", index: 0, id: "c0", name: "a" },
      { type: "tool-call-start", index: 1, id: "c1", name: "b" },
      { type: "tool-arguments-delta", index: 1, delta: '{"y":' },
      { type: "tool-arguments-delta", index: 0, delta: '{"x":' },
      { type: "tool-arguments-delta", index: 1, delta: "2}" },
      { type: "part-end", index: 1 },
      { type: "tool-arguments-delta", index: 0, delta: "1}" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    ]);
    let open = 0;
    let most = 0;
    for (const f of frames) {
      if (f.event === "content_block_start") most = Math.max(most, ++open);
      if (f.event === "content_block_stop") open--;
    }
    expect(most).toBe(1);
    const parts = accumulateStream(decodeAll(frames)).message.parts;
    expect(parts).toStrictEqual([
      { type: "tool-call", id: "c0", name: "a", arguments: '{"x":1}' },
      { type: "tool-call", id: "c1", name: "b", arguments: '{"y":2}' },
    ]);
  });

  it("an error event becomes an error frame and ends the stream", () => {
    const frames = encodeAll([
      { type: "response-start", id: "a", model: "m", created: 0 },
      { type: "text-delta", index: 0, delta: "x" },
      { type: "error", error: { status: 503, type: "service_unavailable", message: "busy" } },
      { type: "text-delta", index: 0, delta: "y" },
    ]);
    expect(frames.map((f) => f.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "error",
    ]);
    expect(JSON.parse(frames[3]?.data ?? "")).toEqual({
      type: "error",
      error: { type: "overloaded_error", message: "busy" },
    });
    expect(decodeAll(frames.slice(3))).toEqual([
      { type: "error", error: { status: 503, type: "overloaded_error", message: "busy" } },
    ]);
  });

  it("drops what a messages stream cannot carry, warning once per kind", () => {
    const { list, onWarning } = warnings();
    const frames = encodeAll(
      [
        { type: "response-start", id: "a", model: "m", created: 0 },
        {
          type: "provider-extras",
          providerExtras: { gemini: { promptFeedback: { blockReason: "SAFETY" } } },
        },
        { type: "text-delta", index: 0, delta: "x" },
        { type: "signature-delta", index: 0, signature: "gemini" },
        { type: "text-delta", index: 0, alternative: 1, delta: "other choice" },
        { type: "text-delta", index: 1, alternative: 1, delta: "again" },
      ],
      onWarning,
    );
    expect(frames.map((f) => f.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "promptFeedback"],
      ["dropped", "parts.signature"],
      ["dropped", "choices"],
    ]);
  });
});

describe("message_delta usage (Anthropic's MessageDeltaUsage)", () => {
  it("a tier or ttl split known only at the end is reported, not written where it has no field", () => {
    const seen: Warning[] = [];
    const encoder = new MessagesStreamEncoder((w) => seen.push(w));
    const frames: { event?: string; data: string }[] = [];
    const events: StreamEvent[] = [
      { type: "response-start", id: "m1", model: "txtB-sonnet-4-6", created: 0 },
      { type: "part-start", index: 0, kind: "text" },
      { type: "text-delta", index: 0, delta: "hi" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" } },
      {
        type: "usage",
        usage: {
          inputTokens: 10,
          outputTokens: 1,
          cachedInputTokens: 0,
          cacheWriteTokens: 4,
          cacheWrite5mTokens: 0,
          cacheWrite1hTokens: 4,
          thinkingTokens: 0,
          serviceTier: "priority",
        },
      },
    ];
    for (const event of events) encoder.push(event, (m) => frames.push(m));
    encoder.end((m) => frames.push(m));
    const delta = JSON.parse(frames.find((f) => f.event === "message_delta")?.data ?? "{}");
    expect(Object.keys(delta.usage).sort()).toEqual([
      "cache_creation_input_tokens",
      "cache_read_input_tokens",
      "input_tokens",
      "output_tokens",
    ]);
    expect(delta.usage.cache_creation_input_tokens).toBe(4);
    expect(seen.map((w) => w.feature).sort()).toEqual([
      "usage.cacheWrite1hTokens",
      "usage.serviceTier",
    ]);
  });
});
