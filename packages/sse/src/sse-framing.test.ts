import { describe, expect, it } from "vitest";
import { decodeSseText, sseFraming } from "./index.js";

describe("sseFraming", () => {
  it("writes whole SSE frames, closes with nothing, and keeps alive with a comment frame", () => {
    const text =
      sseFraming.frame({ event: "a", data: "1\n2" }) +
      sseFraming.keepAlive() +
      sseFraming.frame({ data: "3" }) +
      sseFraming.close();
    expect(text).toBe("event: a\ndata: 1\ndata: 2\n\n: keep-alive\n\ndata: 3\n\n");
    expect(decodeSseText(text)).toEqual([{ event: "a", data: "1\n2" }, { data: "3" }]);
  });
});
