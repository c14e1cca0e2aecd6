import { accumulateStream, guardToolArguments, type StreamEvent } from "@interlingua/core-types";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { messages } from "./messages-codec.js";

// Protocol-shaped but odd Anthropic streams: a second message_start, blocks never stopped,
// repeated or out-of-order indices, deltas for blocks never started, usage first or twice.
const FRAGMENTS = ['{"a":', "1", ',"b":"x"', "}", "{}", "[", "]", '"s"', " ", ""];

const sse = (type: string, payload: object) => ({
  event: type,
  data: JSON.stringify({ type, ...payload }),
});
const usage = (n: number) => ({ input_tokens: n, output_tokens: n });

const frame = fc.oneof(
  fc.nat({ max: 9 }).map((n) =>
    sse("message_start", {
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "m",
        content: [],
        usage: usage(n),
      },
    }),
  ),
  fc.nat({ max: 2 }).map((index) =>
    sse("content_block_start", {
      index,
      content_block: { type: "tool_use", id: `toolu_${index}`, name: "f", input: {} },
    }),
  ),
  fc
    .nat({ max: 2 })
    .map((index) =>
      sse("content_block_start", { index, content_block: { type: "text", text: "" } }),
    ),
  fc
    .record({ index: fc.nat({ max: 2 }), fragment: fc.constantFrom(...FRAGMENTS) })
    .map(({ index, fragment }) =>
      sse("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: fragment },
      }),
    ),
  fc
    .nat({ max: 2 })
    .map((index) =>
      sse("content_block_delta", { index, delta: { type: "text_delta", text: "x" } }),
    ),
  fc.nat({ max: 2 }).map((index) => sse("content_block_stop", { index })),
  fc
    .record({
      reason: fc.constantFrom("end_turn", "tool_use", "max_tokens"),
      n: fc.nat({ max: 9 }),
    })
    .map(({ reason, n }) =>
      sse("message_delta", {
        delta: { stop_reason: reason, stop_sequence: null },
        usage: usage(n),
      }),
    ),
  fc.constant(sse("message_stop", {})),
);

function expectNoHalfJson(events: StreamEvent[]): void {
  const failedAt = events.findIndex((e) => e.type === "error");
  if (failedAt >= 0) {
    expect(events.slice(failedAt + 1).every((e) => e.type === "usage")).toBe(true);
    return;
  }
  for (const choice of accumulateStream(events).choices) {
    for (const part of choice.message.parts) {
      if (part.type === "tool-call") expect(() => JSON.parse(part.arguments)).not.toThrow();
    }
  }
}

// The decoder as the gateway runs it across formats: behind guardToolArguments.
describe("messages stream decoder, fuzzed", () => {
  it("never hands a client a half-JSON tool argument string", () => {
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 25 }), (frames) => {
        const decoder = guardToolArguments(messages.stream.decoder());
        const events: StreamEvent[] = [];
        for (const f of frames) decoder.push(f, (e) => events.push(e));
        decoder.end((e) => events.push(e));
        expectNoHalfJson(events);
      }),
      { numRuns: 500 },
    );
  });
});
