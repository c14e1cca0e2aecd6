import { frameTapOracle, wireJson as json } from "@interlingua/core-types/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { responses } from "./responses-api-codec.js";
import { responsesStreamFrames } from "./responses-stream-frames.js";

const { neededPerFrame, unneeded } = frameTapOracle(responses, responsesStreamFrames);

/** Text that looks like the names searched for, inside a string value, where it must not count. */
const trickyText = fc.oneof(
  fc.string(),
  fc.constantFrom('"response.completed"', '"error"', "response.failed", "error", "é\u{1F600}"),
);

const response = (status: string) =>
  fc.record({
    id: fc.constant("resp_1"),
    object: fc.constant("response"),
    status: fc.constant(status),
    model: fc.constant("m"),
    output: fc.constant([]),
    usage: fc.record({
      input_tokens: fc.nat(),
      output_tokens: fc.nat(),
      total_tokens: fc.nat(),
    }),
  });

const at = {
  output_index: fc.constant(0),
  content_index: fc.constant(0),
  item_id: fc.constant("m1"),
};

/** One event of a Responses stream, mostly text deltas (any order: the decoder copes). */
const event = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant("response.output_text.delta"),
      ...at,
      delta: trickyText,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("response.reasoning_summary_text.delta"),
      output_index: fc.constant(1),
      item_id: fc.constant("r1"),
      summary_index: fc.constant(0),
      delta: trickyText,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("response.created"),
      response: response("in_progress"),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("response.output_item.added"),
      output_index: fc.constant(0),
      item: fc.constant({ id: "m1", type: "message", role: "assistant", content: [] }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("response.output_text.done"),
      ...at,
      text: trickyText,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.oneof(
      fc.record({ type: fc.constant("response.completed"), response: response("completed") }),
      fc.record({ type: fc.constant("response.incomplete"), response: response("incomplete") }),
      fc.record({
        type: fc.constant("response.failed"),
        response: response("failed").map((r) => ({ ...r, error: { code: "x", message: "m" } })),
      }),
      fc.record({ type: fc.constant("error"), code: fc.constant("x"), message: trickyText }),
    ),
  },
);

describe("responsesStreamFrames", () => {
  it("a frame the scan or the plain test lets by decodes to nothing a reader needs", () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        (values, spaced, untyped) => {
          // The decoder reads a frame's type from its data, or else from its `event:` line.
          const frames = values.map(({ type, ...rest }) => ({
            event: type,
            data: json(untyped ? rest : { type, ...rest }, spaced),
          }));
          const needed = neededPerFrame(frames);
          const skipped = unneeded(frames.map((f) => `event: ${f.event}\ndata: ${f.data}\n\n`));
          frames.forEach((frame, i) => {
            if (skipped[i] || responsesStreamFrames.plain(frame)) {
              expect(needed[i], `${frame.event} ${frame.data}`).toEqual([]);
            }
          });
        },
      ),
    );
  });

  it("calls compact text deltas plain, and counts them by their event line", () => {
    const { plain } = responsesStreamFrames;
    expect(
      plain({
        event: "response.output_text.delta",
        data: '{"type":"response.output_text.delta","output_index":0,"delta":"hi"}',
      }),
    ).toBe(true);
    for (const data of [
      '{"type":"response.completed","response":{"usage":{"input_tokens":1}}}',
      '{"type":"error","message":"x"}',
      '{"type": "response.output_text.delta","delta":"hi"}',
    ]) {
      expect(plain({ data })).toBe(false);
    }
    expect(responsesStreamFrames.deltaFrameStart).toBe("event: response.output_text.delta");
  });
});
