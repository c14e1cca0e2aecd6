import { moveThinkingSignature, type StreamEvent, type Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { NativeStreamEncoder } from "./render-native-stream.js";

function encode(events: StreamEvent[]) {
  const warnings: Warning[] = [];
  const encoder = new NativeStreamEncoder({ onWarning: (w) => warnings.push(w) });
  const frames: unknown[] = [];
  for (const event of events) encoder.push(event, (m) => frames.push(JSON.parse(m.data)));
  encoder.end((m) => frames.push(JSON.parse(m.data)));
  return { frames, warnings };
}

const meta = {
  modelVersion: "gemini-3-pro-preview",
  createTime: "2024-01-01T00:00:00.000Z",
  responseId: "r1",
};
const candidate = (parts: object[], extra: object = {}) => ({
  candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
  ...meta,
});
/** A candidate's last frame: the reason alone, with the usage when it is known by then. */
/** The finish frame of a turn that ends well has an empty text part, as Gemini's last frame. */
const emptyTurn = { content: { role: "model", parts: [{ text: "" }] } };
const finished = (finishReason: string, usageMetadata?: object, index = 0) => ({
  ...(usageMetadata === undefined ? {} : { usageMetadata }),
  candidates: [{ ...emptyTurn, finishReason, index }],
  ...meta,
});

describe("stream encode", () => {
  it("writes Gemini chunks as the events arrive; calls whole at their end; no terminator", () => {
    const { frames } = encode([
      { type: "response-start", id: "r1", model: "gemini-3-pro-preview", created: 1704067200 },
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "hmm" },
      { type: "signature-delta", index: 0, signature: "T" },
      { type: "part-end", index: 0 },
      { type: "part-start", index: 1, kind: "text" },
      { type: "text-delta", index: 1, delta: "Hi" },
      { type: "part-end", index: 1 },
      { type: "tool-call-start", index: 2, id: "gemini_call_r1_0_0", name: "f" },
      { type: "tool-arguments-delta", index: 2, delta: '{"a":' },
      { type: "tool-arguments-delta", index: 2, delta: "1}" },
      { type: "signature-delta", index: 2, signature: "S" },
      { type: "part-end", index: 2 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "STOP" } },
      {
        type: "usage",
        usage: {
          inputTokens: 5,
          outputTokens: 9,
          cachedInputTokens: 2,
          cacheWriteTokens: 0,
          thinkingTokens: 4,
        },
      },
    ]);
    expect(frames).toEqual([
      candidate([{ text: "hmm", thought: true }]),
      // The thinking signature rides on the next visible part, never on an empty thought, and
      // carries the thinking's text: Gemini clients do not send thought parts back.
      candidate([{ text: "Hi", thoughtSignature: moveThinkingSignature("T", "hmm") }]),
      candidate([{ functionCall: { name: "f", args: { a: 1 } }, thoughtSignature: "S" }]),
      // Usage after the finish goes beside it, as Gemini's last chunk carries both.
      finished("STOP", {
        promptTokenCount: 5,
        candidatesTokenCount: 5,
        thoughtsTokenCount: 4,
        cachedContentTokenCount: 2,
        totalTokenCount: 14,
      }),
    ]);
  });

  it("a thinking signature (an Anthropic upstream's) goes on the next functionCall, or on empty visible text at the finish", () => {
    const call = encode([
      { type: "response-start", id: "r1", model: "gemini-3-pro-preview", created: 1704067200 },
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "hmm" },
      { type: "signature-delta", index: 0, signature: "SIG" },
      { type: "part-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "toolu_1", name: "f" },
      { type: "tool-arguments-delta", index: 1, delta: "{}" },
      { type: "part-end", index: 1 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_use" } },
    ]).frames;
    type Frame = { candidates?: { content?: { parts: unknown[] } }[] };
    const parts = (call as Frame[]).flatMap((f) =>
      (f.candidates ?? []).flatMap((c) => c.content?.parts ?? []),
    );
    expect(parts).toContainEqual({
      functionCall: { id: "toolu_1", name: "f", args: {} },
      thoughtSignature: moveThinkingSignature("SIG", "hmm"),
    });
    expect(parts).not.toContainEqual(expect.objectContaining({ thought: true, text: "" }));

    const alone = encode([
      { type: "response-start", id: "r1", model: "gemini-3-pro-preview", created: 1704067200 },
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "hmm" },
      { type: "signature-delta", index: 0, signature: "SIG" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "stop", raw: "end_turn" } },
    ]).frames;
    expect(alone).toContainEqual(
      candidate([{ text: "", thoughtSignature: moveThinkingSignature("SIG", "hmm") }]),
    );
  });

  it("a blocked prompt writes its promptFeedback and no candidate; decoding it finishes content-filter", () => {
    const { frames } = encode([
      { type: "response-start", id: "r1", model: "gemini-3-pro-preview", created: 1704067200 },
      {
        type: "provider-extras",
        providerExtras: { gemini: { promptFeedback: { blockReason: "PROHIBITED_CONTENT" } } },
      },
      { type: "finish", finishReason: { unified: "content-filter", raw: "PROHIBITED_CONTENT" } },
    ]);
    expect((frames as { candidates?: unknown }[]).some((f) => f.candidates !== undefined)).toBe(
      false,
    );
  });

  it("a finish frame has content unless blocked: @google/genai chats keep only such turns", () => {
    const finish = (unified: "stop" | "length" | "content-filter") =>
      encode([
        { type: "part-start", index: 0, kind: "text" },
        { type: "text-delta", index: 0, delta: "Hi" },
        { type: "part-end", index: 0 },
        { type: "finish", finishReason: { unified } },
      ]).frames.at(-1) as { candidates: { content?: unknown }[] };
    expect(finish("stop").candidates[0]?.content).toEqual(emptyTurn.content);
    expect(finish("length").candidates[0]?.content).toEqual(emptyTurn.content);
    // A blocked answer has no content on Gemini either: the session drops that turn.
    expect(finish("content-filter").candidates[0]?.content).toBeUndefined();
  });

  it("writes an error event as the upstream's error body, and reports what it drops", () => {
    const { frames, warnings } = encode([
      { type: "redacted-thinking", index: 0, data: "x" },
      { type: "finish", finishReason: { unified: "stop", raw: "end_turn" }, stopSequence: "END" },
      { type: "error", error: { status: 503, type: "server_error", message: "overloaded" } },
    ]);
    expect(frames).toEqual([
      { candidates: [{ ...emptyTurn, finishReason: "STOP", index: 0 }] },
      { error: { code: 503, message: "overloaded", status: "UNAVAILABLE" } },
    ]);
    expect(warnings.map((w) => w.feature)).toEqual(["redacted-thinking", "stopSequence"]);
  });
});

describe("parallel calls", () => {
  it("reach a Gemini client in index order even when the later one ends first", () => {
    const { frames } = encode([
      { type: "response-start", id: "r1", model: "gemini-3-pro-preview", created: 1704067200 },
      { type: "tool-call-start", index: 0, id: "c0", name: "a" },
      { type: "tool-call-start", index: 1, id: "c1", name: "b" },
      { type: "tool-arguments-delta", index: 1, delta: "{}" },
      { type: "part-end", index: 1 },
      { type: "tool-arguments-delta", index: 0, delta: "{}" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } },
    ]);
    type Frame = { candidates?: { content?: { parts: { functionCall?: { id: string } }[] } }[] };
    const ids = (frames as Frame[])
      .flatMap((f) => (f.candidates ?? []).flatMap((c) => c.content?.parts ?? []))
      .flatMap((p) => (p.functionCall ? [p.functionCall.id] : []));
    expect(ids).toEqual(["c0", "c1"]);
  });
});

describe("a moved thinking signature", () => {
  it("decodes back onto its thinking part, unprefixed", async () => {
    const { decodeFrames } = await import("../test/helpers.js");
    const { accumulateStream } = await import("@interlingua/core-types");
    const encoder = new NativeStreamEncoder();
    const data: string[] = [];
    const events: StreamEvent[] = [
      { type: "response-start", id: "r1", model: "m", created: 1704067200 },
      { type: "part-start", index: 0, kind: "thinking" },
      { type: "thinking-delta", index: 0, delta: "hmm" },
      { type: "signature-delta", index: 0, signature: "SIG" },
      { type: "part-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "toolu_1", name: "f" },
      { type: "tool-arguments-delta", index: 1, delta: "{}" },
      { type: "part-end", index: 1 },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "STOP" } },
    ];
    for (const event of events) encoder.push(event, (m) => data.push(m.data));
    encoder.end((m) => data.push(m.data));
    expect(accumulateStream(decodeFrames(data)).message.parts).toStrictEqual([
      { type: "thinking", text: "hmm", signature: "SIG" },
      { type: "tool-call", id: "toolu_1", name: "f", arguments: "{}" },
    ]);
  });
});

describe("after an error frame (issue 26, item 2)", () => {
  it("only usage follows: a call still open is never written with invented arguments", () => {
    const { frames } = encode([
      { type: "response-start", id: "r1", model: "m", created: 0 },
      { type: "tool-call-start", index: 0, id: "c", name: "f" },
      { type: "tool-arguments-delta", index: 0, delta: '{"a":' },
      { type: "error", error: { status: 502, type: "bad_gateway", message: "cut" } },
      { type: "text-delta", index: 1, delta: "late" },
      {
        type: "usage",
        usage: {
          inputTokens: 1,
          outputTokens: 2,
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
          thinkingTokens: 0,
        },
      },
    ]);
    const at = frames.findIndex((f) => (f as { error?: unknown }).error !== undefined);
    expect(at).toBeGreaterThanOrEqual(0);
    const after = frames.slice(at + 1) as { candidates?: unknown; usageMetadata?: unknown }[];
    expect(after.length).toBe(1);
    expect(after[0]!.candidates).toBeUndefined();
    expect(after[0]!.usageMetadata).toBeDefined();
  });
});

describe("usage rides beside candidates", () => {
  const usage = {
    inputTokens: 5,
    outputTokens: 2,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  };
  it("usage known first (an Anthropic upstream's) goes on the first candidate, never alone", () => {
    const { frames } = encode([
      { type: "response-start", id: "r1", model: "gemini-3-pro-preview", created: 1704067200 },
      { type: "usage", usage },
      { type: "part-start", index: 0, kind: "text" },
      { type: "text-delta", index: 0, delta: "Hi" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "stop", raw: "end_turn" } },
      { type: "usage", usage: { ...usage, outputTokens: 3 } },
    ]);
    const metadata = { promptTokenCount: 5, totalTokenCount: 7 };
    expect(frames).toEqual([
      { usageMetadata: { ...metadata, candidatesTokenCount: 2 }, ...candidate([{ text: "Hi" }]) },
      finished("STOP", { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 }),
    ]);
    expect(frames.every((f) => (f as { candidates?: unknown }).candidates !== undefined)).toBe(
      true,
    );
  });
  it("a stream cut before any candidate still reports its usage, alone", () => {
    const { frames } = encode([
      { type: "response-start", id: "r1", model: "gemini-3-pro-preview", created: 1704067200 },
      { type: "usage", usage },
    ]);
    expect(frames).toEqual([
      {
        usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2, totalTokenCount: 7 },
        ...meta,
      },
    ]);
  });
});
