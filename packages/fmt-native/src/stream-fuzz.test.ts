import { fc, noHalfJsonProperty } from "@interlingua/core-types/testing";
import { describe, it } from "vitest";
import { native } from "./native-codec.js";

// Protocol-shaped but odd Gemini streams: calls streamed with partialArgs whose last fragment
// never comes (willContinue left on), repeated candidate indices, usage first or twice, a
// finish in the middle, an error chunk, a frame that is not JSON.
const chunk = (candidate: object | undefined, extra: object = {}) =>
  JSON.stringify({
    ...(candidate === undefined ? {} : { candidates: [candidate] }),
    responseId: "r",
    modelVersion: "m",
    ...extra,
  });
const parts = (index: number, list: object[], finishReason?: string) => ({
  index,
  content: { role: "model", parts: list },
  ...(finishReason === undefined ? {} : { finishReason }),
});

const frame = fc.oneof(
  fc.nat({ max: 1 }).map((i) => chunk(parts(i, [{ text: "hi" }]))),
  fc.nat({ max: 1 }).map((i) => chunk(parts(i, [{ text: "hm", thought: true }]))),
  fc
    .record({ i: fc.nat({ max: 1 }), args: fc.constantFrom({}, { a: 1 }, { b: "x" }) })
    .map(({ i, args }) => chunk(parts(i, [{ functionCall: { name: "f", args } }]))),
  fc
    .record({
      i: fc.nat({ max: 1 }),
      path: fc.constantFrom("$.a", "$.b", "$.c[0]"),
      more: fc.boolean(),
      value: fc.oneof(
        fc.record({ stringValue: fc.constantFrom("x", 'y"z') }),
        fc.record({ numberValue: fc.integer() }),
        fc.record({ boolValue: fc.boolean() }),
      ),
      callMore: fc.boolean(),
    })
    .map(({ i, path, more, value, callMore }) =>
      chunk(
        parts(i, [
          {
            functionCall: {
              name: "g",
              partialArgs: [{ jsonPath: path, ...value, ...(more ? { willContinue: true } : {}) }],
              ...(callMore ? { willContinue: true } : {}),
            },
          },
        ]),
      ),
    ),
  fc
    .record({
      i: fc.nat({ max: 1 }),
      reason: fc.constantFrom("STOP", "MAX_TOKENS", "MALFORMED_FUNCTION_CALL"),
    })
    .map(({ i, reason }) => chunk(parts(i, [{ text: "" }], reason))),
  fc.nat({ max: 20 }).map((n) =>
    chunk(undefined, {
      usageMetadata: { promptTokenCount: n, candidatesTokenCount: n, totalTokenCount: 2 * n },
    }),
  ),
  fc.constant(JSON.stringify({ error: { code: 503, message: "busy", status: "UNAVAILABLE" } })),
  fc.constant("{not json"),
);

describe("native stream decoder, fuzzed", () => {
  it("never hands a client a half-JSON tool argument string", () => {
    fc.assert(
      noHalfJsonProperty(
        frame.map((data) => ({ data })),
        () => native.stream.decoder(),
        20,
      ),
      { numRuns: 500 },
    );
  });
});
