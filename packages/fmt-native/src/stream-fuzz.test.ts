import { accumulateStream, guardToolArguments, type StreamEvent } from "@interlingua/core-types";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
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
describe("native stream decoder, fuzzed", () => {
  it("never hands a client a half-JSON tool argument string", () => {
    fc.assert(
      fc.property(fc.array(frame, { maxLength: 20 }), (frames) => {
        const decoder = guardToolArguments(native.stream.decoder());
        const events: StreamEvent[] = [];
        for (const data of frames) decoder.push({ data }, (e) => events.push(e));
        decoder.end((e) => events.push(e));
        expectNoHalfJson(events);
      }),
      { numRuns: 500 },
    );
  });
});
