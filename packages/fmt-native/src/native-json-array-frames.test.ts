import { describe, expect, it } from "vitest";
import { nativeJsonArrayFraming } from "./native-json-array-frames.js";

describe("nativeJsonArrayFraming", () => {
  it("writes the elements as one JSON array, as each arrives", () => {
    const framing = nativeJsonArrayFraming();
    const parts = [
      framing.frame({ data: '{"a":1}' }),
      framing.frame({ data: '{"b":2}' }),
      framing.close(),
    ];
    expect(parts).toEqual(['[{"a":1}', ',\r\n{"b":2}', "]"]);
    expect(JSON.parse(parts.join(""))).toEqual([{ a: 1 }, { b: 2 }]);
    expect(framing.keepAlive()).toBeUndefined();
  });

  it("closes an empty stream as an empty array", () => {
    expect(nativeJsonArrayFraming().close()).toBe("[]");
  });
});
