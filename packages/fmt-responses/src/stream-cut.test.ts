import { type SseMessage, streamCutEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { decodeResponsesEvents } from "./parse-responses-stream.js";

const frame = (type: string, body: object): SseMessage => ({
  event: type,
  data: JSON.stringify({ type, ...body }),
});
const response = (status: string) => ({
  id: "resp_1",
  object: "response",
  created_at: 1,
  model: "m",
  status,
  output: [],
});
const created = frame("response.created", { response: response("in_progress") });
const delta = [
  frame("response.output_item.added", {
    output_index: 0,
    item: { type: "message", id: "msg_1", role: "assistant", status: "in_progress", content: [] },
  }),
  frame("response.output_text.delta", {
    item_id: "msg_1",
    output_index: 0,
    content_index: 0,
    delta: "Hi",
  }),
];

describe("a Responses stream that ends without its terminal event (issue 26, item 1)", () => {
  it("ends with the cut error, not a finish", () => {
    const events = decodeResponsesEvents([created, ...delta]);
    expect(events.at(-1)).toEqual(streamCutEvent());
    expect(events.some((e) => e.type === "finish")).toBe(false);
  });
  it("an empty body is a cut stream", () => {
    expect(decodeResponsesEvents([])).toEqual([streamCutEvent()]);
  });
  it("response.completed or response.failed is an ending", () => {
    const done = frame("response.completed", { response: response("completed") });
    expect(decodeResponsesEvents([created, ...delta, done])).not.toContainEqual(streamCutEvent());
    const failed = frame("response.failed", {
      response: { ...response("failed"), error: { code: "server_error", message: "x" } },
    });
    const events = decodeResponsesEvents([created, failed]);
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
    expect(events).not.toContainEqual(streamCutEvent());
  });
});
