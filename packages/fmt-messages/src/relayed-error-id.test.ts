import type { StreamEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { messages } from "./messages-codec.js";
import { withErrorRequestId } from "./relayed-error-id.js";

const ERROR = '{"type":"error","error":{"type":"overloaded_error","message":"Over \\"loaded\\""}}';

describe("a messages error event names the request", () => {
  it("a relayed error frame, named or not, ends its message with the id (escapes kept)", () => {
    for (const raw of [`event: error\ndata: ${ERROR}\n\n`, `data: ${ERROR}\n\n`]) {
      const edited = withErrorRequestId(raw, "req_1");
      const data = JSON.parse(edited.slice(edited.indexOf("{"))) as {
        error: { message: string };
      };
      expect(data.error.message).toBe('Over "loaded" (request id: req_1)');
    }
  });

  it("other frames, and any frame without an id to add, are left byte for byte", () => {
    const delta =
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the message: \\"x\\""}}\n\n';
    expect(withErrorRequestId(delta, "req_1")).toBe(delta);
    const error = `event: error\ndata: ${ERROR}\n\n`;
    expect(withErrorRequestId(error, undefined)).toBe(error);
  });

  it("the encoder ends an error event's message with the id it was given", () => {
    const frames: { event?: string; data: string }[] = [];
    const encoder = messages.stream.encoder({ requestId: "req_2" });
    const events: StreamEvent[] = [
      { type: "response-start", id: "msg_1", model: "m", created: 0 },
      { type: "error", error: { status: 529, type: "overloaded_error", message: "Overloaded" } },
    ];
    for (const event of events) encoder.push(event, (frame) => frames.push(frame));
    encoder.end((frame) => frames.push(frame));
    const error = frames.find((frame) => frame.event === "error")!;
    expect(JSON.parse(error.data).error.message).toBe("Overloaded (request id: req_2)");
  });
});
