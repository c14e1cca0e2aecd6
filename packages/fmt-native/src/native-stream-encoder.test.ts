import type { StreamEvent, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { NativeStreamEncoder } from "./native-stream-encoder.js";

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
      candidate([{ text: "", thought: true, thoughtSignature: "T" }]),
      candidate([{ text: "Hi" }]),
      candidate([{ functionCall: { name: "f", args: { a: 1 } }, thoughtSignature: "S" }]),
      candidate([{ text: "" }], { finishReason: "STOP" }),
      {
        usageMetadata: {
          promptTokenCount: 5,
          candidatesTokenCount: 5,
          thoughtsTokenCount: 4,
          cachedContentTokenCount: 2,
          totalTokenCount: 14,
        },
        ...meta,
      },
    ]);
  });

  it("writes an error event as the upstream's error body, and reports what it drops", () => {
    const { frames, warnings } = encode([
      { type: "redacted-thinking", index: 0, data: "x" },
      { type: "finish", finishReason: { unified: "stop", raw: "end_turn" }, stopSequence: "END" },
      { type: "error", error: { status: 503, type: "server_error", message: "overloaded" } },
    ]);
    expect(frames).toEqual([
      {
        candidates: [
          { content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 },
        ],
      },
      { error: { code: 503, message: "overloaded", status: "UNAVAILABLE" } },
    ]);
    expect(warnings.map((w) => w.feature)).toEqual(["redacted-thinking", "stopSequence"]);
  });
});
