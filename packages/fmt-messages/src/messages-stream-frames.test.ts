import { frameTapOracle, wireJson as json } from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { messages } from "./messages-codec.js";
import { messagesStreamFrames } from "./messages-stream-frames.js";

const { neededPerFrame, unneeded } = frameTapOracle(messages, messagesStreamFrames);

/** Text that looks like the keys searched for, inside a string value, where it must not count. */
const trickyText = fc.oneof(
  fc.string(),
  fc.constantFrom('"message_delta"', '"error"', "message_start", '{"type":"error"}', "é\u{1F600}"),
);

const usage = fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat() });

/** One event of a message stream, mostly content deltas (any order: the decoder copes). */
const event = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant("content_block_delta"),
      index: fc.constant(0),
      delta: fc.oneof(
        fc.record({ type: fc.constant("text_delta"), text: trickyText }),
        fc.record({ type: fc.constant("thinking_delta"), thinking: trickyText }),
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("message_start"),
      message: fc.record({
        id: fc.constant("msg_1"),
        type: fc.constant("message"),
        role: fc.constant("assistant"),
        model: fc.constant("m"),
        content: fc.constant([]),
        stop_reason: fc.constant(null),
        usage,
      }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("content_block_start"),
      index: fc.constant(0),
      content_block: fc.record({ type: fc.constant("text"), text: fc.constant("") }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("ping") }) },
  {
    weight: 1,
    arbitrary: fc.record({ type: fc.constant("content_block_stop"), index: fc.constant(0) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("message_delta"),
      delta: fc.record({ stop_reason: fc.constantFrom("end_turn", "max_tokens") }),
      usage: fc.record({ output_tokens: fc.nat() }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ type: fc.constant("message_stop") }) },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("error"),
      error: fc.record({ type: fc.constant("overloaded_error"), message: trickyText }),
    }),
  },
);

describe("messagesStreamFrames", () => {
  it("a frame the scan or the plain test lets by decodes to nothing a reader needs", () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (values, spaced) => {
          const frames = values.map((value) => ({ event: value.type, data: json(value, spaced) }));
          const needed = neededPerFrame(frames);
          const skipped = unneeded(frames.map((f) => `event: ${f.event}\ndata: ${f.data}\n\n`));
          frames.forEach((frame, i) => {
            if (skipped[i] || messagesStreamFrames.plain(frame)) {
              expect(needed[i], frame.data).toEqual([]);
            }
          });
        },
      ),
    );
  });

  it("only content_block_delta frames are plain, and they are counted by their event line", () => {
    const { plain } = messagesStreamFrames;
    expect(
      plain({
        event: "content_block_delta",
        data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}',
      }),
    ).toBe(true);
    for (const data of [
      '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}',
      '{"type":"message_start","message":{"usage":{"input_tokens":3}}}',
      '{"type":"error","error":{"type":"overloaded_error","message":"x"}}',
      '{"type":"content_block_stop","index":0}',
    ]) {
      expect(plain({ data })).toBe(false);
    }
    expect(messagesStreamFrames.deltaFrameStart).toBe("event: content_block_delta");
  });
});
