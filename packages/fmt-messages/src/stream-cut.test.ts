import { type SseMessage, type StreamEvent, streamCutEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { MessagesStreamDecoder } from "./parse-messages-stream.js";

const decode = (messages: SseMessage[]): StreamEvent[] => {
  const decoder = new MessagesStreamDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => void events.push(event);
  for (const message of messages) decoder.push(message, emit);
  decoder.end(emit);
  return events;
};
const frame = (event: string, body: object): SseMessage => ({
  event,
  data: JSON.stringify({ type: event, ...body }),
});
const start = frame("message_start", {
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "m",
    content: [],
    stop_reason: null,
    usage: { input_tokens: 3, output_tokens: 1 },
  },
});
const text = [
  frame("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
  frame("content_block_delta", { index: 0, delta: { type: "text_delta", text: "Hi" } }),
];

describe("a messages stream that ends without message_stop (issue 26, item 1)", () => {
  it("ends with the cut error, not a finish", () => {
    const events = decode([start, ...text]);
    expect(events.at(-1)).toEqual(streamCutEvent());
    expect(events.some((e) => e.type === "finish")).toBe(false);
  });
  it("an empty body is a cut stream", () => {
    expect(decode([])).toEqual([streamCutEvent()]);
  });
  it("message_stop, a stop reason or an error is an ending", () => {
    const stop = frame("message_delta", { delta: { stop_reason: "end_turn" }, usage: {} });
    expect(decode([start, ...text, stop])).not.toContainEqual(streamCutEvent());
    expect(decode([start, frame("message_stop", {})])).not.toContainEqual(streamCutEvent());
    const failed = decode([start, frame("error", { error: { type: "overloaded_error" } })]);
    expect(failed.filter((e) => e.type === "error")).toHaveLength(1);
  });
});
