import { type SseMessage, type StreamEvent, streamCutEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { NativeStreamDecoder } from "./parse-native-stream.js";

const decode = (messages: SseMessage[]): StreamEvent[] => {
  const decoder = new NativeStreamDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => void events.push(event);
  for (const message of messages) decoder.push(message, emit);
  decoder.end(emit);
  return events;
};
const chunk = (extra: object = {}): SseMessage => ({
  data: JSON.stringify({
    candidates: [{ content: { role: "model", parts: [{ text: "Hi" }] }, index: 0, ...extra }],
    modelVersion: "m",
    responseId: "r1",
  }),
});

describe("a Gemini stream that ends without a finishReason (issue 26, item 1)", () => {
  it("ends with the cut error, not a finish", () => {
    const events = decode([chunk()]);
    expect(events.at(-1)).toEqual(streamCutEvent());
    expect(events.some((e) => e.type === "finish")).toBe(false);
  });
  it("an empty body is a cut stream", () => {
    expect(decode([])).toEqual([streamCutEvent()]);
  });
  it("a finishReason, a blocked prompt or an error is an ending", () => {
    expect(decode([chunk({ finishReason: "STOP" })])).not.toContainEqual(streamCutEvent());
    const blocked = { data: JSON.stringify({ promptFeedback: { blockReason: "SAFETY" } }) };
    expect(decode([blocked])).not.toContainEqual(streamCutEvent());
    const failed = decode([
      { data: '{"error":{"code":503,"message":"x","status":"UNAVAILABLE"}}' },
    ]);
    expect(failed.filter((e) => e.type === "error")).toHaveLength(1);
  });
});
