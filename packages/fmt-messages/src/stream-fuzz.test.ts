import { ARGUMENT_FRAGMENTS, fc, noHalfJsonProperty } from "@interlingua/core-types/testing";
import { describe, it } from "vitest";
import { messages } from "./messages-codec.js";

// Protocol-shaped but odd Anthropic streams: a second message_start, blocks never stopped,
// repeated or out-of-order indices, deltas for blocks never started, usage first or twice.
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
    .record({ index: fc.nat({ max: 2 }), fragment: fc.constantFrom(...ARGUMENT_FRAGMENTS) })
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

describe("messages stream decoder, fuzzed", () => {
  it("never hands a client a half-JSON tool argument string", () => {
    fc.assert(
      noHalfJsonProperty(frame, () => messages.stream.decoder(), 25),
      { numRuns: 500 },
    );
  });
});
