import { describe, expect, it } from "vitest";
import { DONE, decodeSseText, doneEvent, encodeSseEvent, isDone } from "./index.js";

describe("the [DONE] terminator", () => {
  it("is written and read as `data: [DONE]`", () => {
    expect(encodeSseEvent(doneEvent())).toBe("data: [DONE]\n\n");
    const [event] = decodeSseText("data: {}\n\ndata: [DONE]\n\n").filter(isDone);
    expect(event).toEqual({ data: DONE });
  });

  it("is recognised by its data only", () => {
    expect(isDone({ event: "done", data: DONE })).toBe(true);
    expect(isDone({ data: " [DONE]" })).toBe(false);
    expect(isDone({ data: '"[DONE]"' })).toBe(false);
  });

  it("gives a fresh object each time", () => {
    expect(doneEvent()).not.toBe(doneEvent());
  });
});
