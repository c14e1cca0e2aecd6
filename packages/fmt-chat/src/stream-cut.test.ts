import { type SseMessage, type StreamEvent, streamCutEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { ChatStreamDecoder } from "./parse-chat-stream.js";

const decode = (messages: SseMessage[]): StreamEvent[] => {
  const decoder = new ChatStreamDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => void events.push(event);
  for (const message of messages) decoder.push(message, emit);
  decoder.end(emit);
  return events;
};
const chunk = (choice: object) => ({
  data: JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, ...choice }],
  }),
});

describe("a chat stream that ends without its finish (issue 26, item 1)", () => {
  it("ends with the cut error, not a finish", () => {
    const events = decode([chunk({ delta: { content: "Hel" }, finish_reason: null })]);
    expect(events.at(-1)).toEqual(streamCutEvent());
    expect(events.some((e) => e.type === "finish")).toBe(false);
  });
  it("cut inside a tool call: the call is closed, then the cut error", () => {
    const events = decode([
      chunk({
        delta: { tool_calls: [{ index: 0, id: "c", function: { name: "f", arguments: '{"a":' } }] },
        finish_reason: null,
      }),
    ]);
    expect(events.at(-1)).toEqual(streamCutEvent());
  });
  it("an empty body is a cut stream", () => {
    expect(decode([])).toEqual([streamCutEvent()]);
  });
  it("a finish_reason, [DONE] or an error is an ending: no cut error", () => {
    expect(decode([chunk({ delta: { content: "x" }, finish_reason: "stop" })])).not.toContainEqual(
      streamCutEvent(),
    );
    expect(decode([{ data: "[DONE]" }])).toEqual([]);
    const failed = decode([{ data: '{"error":{"message":"boom","type":"server_error"}}' }]);
    expect(failed.filter((e) => e.type === "error")).toHaveLength(1);
    expect(failed).not.toContainEqual(streamCutEvent());
  });
});
