import { ARGUMENT_FRAGMENTS, fc, noHalfJsonProperty } from "@interlingua/core-types/testing";
import { describe, it } from "vitest";
import { responses } from "./responses-api-codec.js";

// Protocol-shaped but odd OpenAI Responses streams: a second response.created, function calls
// whose argument deltas come out of order or for items never added, no .done events, a
// terminal event in the middle or twice, usage first or twice.
let seq = 0;
const event = (type: string, payload: object) => ({
  event: type,
  data: JSON.stringify({ type, sequence_number: seq++, ...payload }),
});
const response = (status: string, usage?: number) => ({
  id: "resp_1",
  object: "response",
  created_at: 1,
  status,
  model: "m",
  output: [],
  ...(usage === undefined
    ? {}
    : { usage: { input_tokens: usage, output_tokens: usage, total_tokens: 2 * usage } }),
});

const frame = fc.oneof(
  fc.constant(event("response.created", { response: response("in_progress") })),
  fc.nat({ max: 2 }).map((i) =>
    event("response.output_item.added", {
      output_index: i,
      item: {
        id: `fc_${i}`,
        type: "function_call",
        call_id: `call_${i}`,
        name: "f",
        arguments: "",
        status: "in_progress",
      },
    }),
  ),
  fc
    .record({ i: fc.nat({ max: 2 }), fragment: fc.constantFrom(...ARGUMENT_FRAGMENTS) })
    .map(({ i, fragment }) =>
      event("response.function_call_arguments.delta", {
        item_id: `fc_${i}`,
        output_index: i,
        delta: fragment,
      }),
    ),
  fc
    .record({ i: fc.nat({ max: 2 }), args: fc.constantFrom('{"a":1}', "{}", '{"a":') })
    .map(({ i, args }) =>
      event("response.function_call_arguments.done", {
        item_id: `fc_${i}`,
        output_index: i,
        arguments: args,
      }),
    ),
  fc.nat({ max: 2 }).map((i) =>
    event("response.output_text.delta", {
      item_id: `msg_${i}`,
      output_index: i,
      content_index: 0,
      delta: "hi",
    }),
  ),
  fc
    .record({ status: fc.constantFrom("completed", "incomplete"), n: fc.nat({ max: 9 }) })
    .map(({ status, n }) => event(`response.${status}`, { response: response(status, n) })),
);

describe("responses stream decoder, fuzzed", () => {
  it("never hands a client a half-JSON tool argument string", () => {
    fc.assert(
      noHalfJsonProperty(frame, () => responses.stream.decoder(), 20),
      { numRuns: 500 },
    );
  });
});
