import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isSseEvent, sseEventProblem } from "./index.js";
import { sseEventSchema } from "./schemas.js";

describe("which events SSE can carry", () => {
  it.each<[unknown, string | undefined]>([
    [{ data: "" }, undefined],
    [{ data: "a\r\nb", event: "e", id: "", retry: 0 }, undefined],
    [{ data: "x", event: undefined }, undefined],
    [null, "an SSE event must be an object"],
    ["data: x", "an SSE event must be an object"],
    [{}, "SSE data must be a string"],
    [{ data: "x", event: 1 }, "SSE event must be a string"],
    [{ data: "x", event: "a\nb" }, "SSE event has a line break"],
    [{ data: "x", id: "a\rb" }, "SSE id has a line break"],
    [{ data: "x", id: "\0" }, "SSE id has a NULL character"],
    [{ data: "x", retry: "1" }, "SSE retry must be a non-negative integer"],
    [{ data: "x", retry: 2 ** 53 }, "SSE retry must be a non-negative integer"],
  ])("%o: %s", (value, problem) => {
    expect(sseEventProblem(value)).toBe(problem);
    expect(isSseEvent(value)).toBe(problem === undefined);
  });

  it("the guard and the zod schema agree", () => {
    const text = fc.string({
      unit: fc.constantFrom("a", "\n", "\r", "\0", " ", "😀"),
      maxLength: 4,
    });
    const value = fc.record(
      {
        data: fc.oneof(text, fc.constant(1)),
        event: fc.oneof(text, fc.constant(null)),
        id: text,
        retry: fc.oneof(fc.integer(), fc.double(), fc.constant(2 ** 53)),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(value, (v) => {
        expect(isSseEvent(v)).toBe(sseEventSchema.safeParse(v).success);
      }),
      { numRuns: 1000 },
    );
  });
});
