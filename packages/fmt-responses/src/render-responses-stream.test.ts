import type { StreamEvent, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { encodeResponsesEvents, encodeResponsesStream } from "./render-responses-stream.js";

const frames = (events: StreamEvent[], warnings?: Warning[]) =>
  encodeResponsesEvents(events, warnings ? { onWarning: (w) => warnings.push(w) } : {}).map((m) => {
    const payload = JSON.parse(m.data);
    expect(m.event).toBe(payload.type);
    return payload;
  });

const start: StreamEvent = {
  type: "response-start",
  id: "resp_abc",
  model: "txtA-5.2-pro",
  created: 1765000000,
};
const inProgress = (sequence_number: number, type: string) => ({
  type,
  sequence_number,
  response: {
    id: "resp_abc",
    object: "response",
    created_at: 1765000000,
    status: "in_progress",
    error: null,
    incomplete_details: null,
    model: "txtA-5.2-pro",
    output: [],
  },
});

describe("encoding canonical events as OpenAI Responses stream events", () => {
  it("writes the documented event sequence: reasoning, text and a function call", () => {
    const events: StreamEvent[] = [
      start,
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "Think." },
      { type: "signature-delta", index: 0, signature: "gAAAA-opaque==" },
      { type: "part-end", index: 0 },
      { type: "part-start", index: 1, kind: "text" },
      { type: "text-delta", index: 1, delta: "Hel" },
      { type: "text-delta", index: 1, delta: "lo" },
      { type: "part-end", index: 1 },
      { type: "tool-call-start", index: 2, id: "call_1", name: "get_weather" },
      { type: "tool-arguments-delta", index: 2, delta: '{"city":' },
      { type: "tool-arguments-delta", index: 2, delta: '"Paris"}' },
      { type: "part-end", index: 2 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" } },
      {
        type: "usage",
        usage: {
          inputTokens: 100,
          outputTokens: 30,
          cachedInputTokens: 60,
          cacheWriteTokens: 0,
          thinkingTokens: 12,
        },
      },
    ];
    const reasoning = {
      id: "rs_abc_0",
      type: "reasoning",
      summary: [{ type: "summary_text", text: "Think." }],
      encrypted_content: "gAAAA-opaque==",
    };
    const message = {
      id: "msg_abc_1",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", annotations: [], logprobs: [], text: "Hello" }],
    };
    const call = {
      id: "fc_abc_2",
      type: "function_call",
      status: "completed",
      arguments: '{"city":"Paris"}',
      call_id: "call_1",
      name: "get_weather",
    };
    const rs = { item_id: "rs_abc_0", output_index: 0 };
    const msg = { item_id: "msg_abc_1", output_index: 1 };
    const fc = { item_id: "fc_abc_2", output_index: 2 };
    expect(frames(events)).toEqual([
      inProgress(0, "response.created"),
      inProgress(1, "response.in_progress"),
      {
        type: "response.output_item.added",
        sequence_number: 2,
        output_index: 0,
        item: { id: "rs_abc_0", type: "reasoning", summary: [] },
      },
      {
        type: "response.reasoning_summary_part.added",
        sequence_number: 3,
        ...rs,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      },
      {
        type: "response.reasoning_summary_text.delta",
        sequence_number: 4,
        ...rs,
        summary_index: 0,
        delta: "Think.",
      },
      {
        type: "response.reasoning_summary_text.done",
        sequence_number: 5,
        ...rs,
        summary_index: 0,
        text: "Think.",
      },
      {
        type: "response.reasoning_summary_part.done",
        sequence_number: 6,
        ...rs,
        summary_index: 0,
        part: { type: "summary_text", text: "Think." },
      },
      { type: "response.output_item.done", sequence_number: 7, output_index: 0, item: reasoning },
      {
        type: "response.output_item.added",
        sequence_number: 8,
        output_index: 1,
        item: {
          id: "msg_abc_1",
          type: "message",
          status: "in_progress",
          role: "assistant",
          content: [],
        },
      },
      {
        type: "response.content_part.added",
        sequence_number: 9,
        ...msg,
        content_index: 0,
        part: { type: "output_text", annotations: [], logprobs: [], text: "" },
      },
      {
        type: "response.output_text.delta",
        sequence_number: 10,
        ...msg,
        content_index: 0,
        delta: "Hel",
        logprobs: [],
      },
      {
        type: "response.output_text.delta",
        sequence_number: 11,
        ...msg,
        content_index: 0,
        delta: "lo",
        logprobs: [],
      },
      {
        type: "response.output_text.done",
        sequence_number: 12,
        ...msg,
        content_index: 0,
        text: "Hello",
        logprobs: [],
      },
      {
        type: "response.content_part.done",
        sequence_number: 13,
        ...msg,
        content_index: 0,
        part: { type: "output_text", annotations: [], logprobs: [], text: "Hello" },
      },
      { type: "response.output_item.done", sequence_number: 14, output_index: 1, item: message },
      {
        type: "response.output_item.added",
        sequence_number: 15,
        output_index: 2,
        item: {
          id: "fc_abc_2",
          type: "function_call",
          status: "in_progress",
          arguments: "",
          call_id: "call_1",
          name: "get_weather",
        },
      },
      {
        type: "response.function_call_arguments.delta",
        sequence_number: 16,
        ...fc,
        delta: '{"city":',
      },
      {
        type: "response.function_call_arguments.delta",
        sequence_number: 17,
        ...fc,
        delta: '"Paris"}',
      },
      {
        type: "response.function_call_arguments.done",
        sequence_number: 18,
        ...fc,
        name: "get_weather",
        arguments: '{"city":"Paris"}',
      },
      { type: "response.output_item.done", sequence_number: 19, output_index: 2, item: call },
      {
        type: "response.completed",
        sequence_number: 20,
        response: {
          id: "resp_abc",
          object: "response",
          created_at: 1765000000,
          status: "completed",
          error: null,
          incomplete_details: null,
          model: "txtA-5.2-pro",
          output: [reasoning, message, call],
          usage: {
            input_tokens: 100,
            input_tokens_details: { cached_tokens: 60, cache_write_tokens: 0 },
            output_tokens: 30,
            output_tokens_details: { reasoning_tokens: 12 },
            total_tokens: 130,
          },
        },
      },
    ]);
  });

  it("a length finish ends with response.incomplete, max_output_tokens", () => {
    const out = frames([
      start,
      { type: "text-delta", index: 0, delta: "Cut" },
      { type: "finish", finishReason: { unified: "length", raw: "max_tokens" } },
    ]);
    expect(out.map((f) => f.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.incomplete",
    ]);
    expect(out[8].response).toMatchObject({
      status: "incomplete",
      incomplete_details: { reason: "max_output_tokens" },
      usage: null,
    });
  });

  it("an error becomes an error event (documented and real fields) and response.failed, and ends the stream", () => {
    const out = frames([
      start,
      { type: "text-delta", index: 0, delta: "Par" },
      {
        type: "error",
        error: {
          status: 429,
          type: "rate_limit_error",
          message: "Too many requests",
          code: "rate_limit_exceeded",
        },
      },
      { type: "text-delta", index: 0, delta: "tial" },
      { type: "finish", finishReason: { unified: "stop" } },
    ]);
    expect(out.slice(5)).toEqual([
      {
        type: "error",
        sequence_number: 5,
        code: "rate_limit_exceeded",
        message: "Too many requests",
        param: null,
        error: {
          type: "rate_limit_error",
          code: "rate_limit_exceeded",
          message: "Too many requests",
          param: null,
        },
      },
      {
        type: "response.failed",
        sequence_number: 6,
        response: {
          id: "resp_abc",
          object: "response",
          created_at: 1765000000,
          status: "failed",
          error: { code: "rate_limit_exceeded", message: "Too many requests" },
          incomplete_details: null,
          model: "txtA-5.2-pro",
          output: [],
        },
      },
    ]);
  });

  it("an error of another family is written with the standard type of its status", () => {
    const out = frames([
      start,
      { type: "error", error: { status: 503, type: "overloaded_error", message: "Overloaded" } },
    ]);
    const [error, failed] = out.slice(-2);
    expect(error).toMatchObject({
      type: "error",
      code: "service_unavailable",
      error: { type: "service_unavailable", code: null },
    });
    expect(failed).toMatchObject({ response: { error: { code: "service_unavailable" } } });
  });

  it("what the stream cannot carry is dropped with one warning per feature (signatures and redacted thinking it carries)", () => {
    const warnings: Warning[] = [];
    frames(
      [
        start,
        {
          type: "provider-extras",
          providerExtras: { gemini: { promptFeedback: { blockReason: "SAFETY" } } },
        },
        { type: "text-delta", index: 0, delta: "a" },
        { type: "signature-delta", index: 0, signature: "gemini-sig" },
        { type: "signature-delta", index: 0, signature: "more" },
        { type: "redacted-thinking", index: 1, data: "xyz" },
        { type: "text-delta", index: 0, alternative: 1, delta: "second choice" },
        { type: "finish", finishReason: { unified: "stop" }, stopSequence: "###" },
        {
          type: "usage",
          usage: {
            inputTokens: 10,
            outputTokens: 5,
            cachedInputTokens: 0,
            cacheWriteTokens: 4,
            thinkingTokens: 0,
          },
        },
      ],
      warnings,
    );
    expect(warnings.map((w) => w.feature)).toEqual([
      "promptFeedback",
      "choices",
      "choices.stopSequence",
    ]);
  });

  it("writes each frame as soon as its event arrives", async () => {
    const encode = encodeResponsesStream();
    const writer = encode.writable.getWriter();
    const reader = encode.readable.getReader();
    void writer.write(start);
    expect(JSON.parse((await reader.read()).value?.data ?? "").type).toBe("response.created");
    expect(JSON.parse((await reader.read()).value?.data ?? "").type).toBe("response.in_progress");
    void writer.write({ type: "part-start", index: 0, kind: "text" });
    await reader.read();
    await reader.read();
    void writer.write({ type: "text-delta", index: 0, delta: "now" });
    expect(JSON.parse((await reader.read()).value?.data ?? "")).toMatchObject({
      type: "response.output_text.delta",
      delta: "now",
    });
    void writer.close();
    const rest: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest.push(JSON.parse(value.data).type);
    }
    expect(rest).toEqual([
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
  });
});
