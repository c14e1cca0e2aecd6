import { describe, expect, it } from "vitest";
import { nativeProtocol } from "./native-protocol.js";

describe("nativeProtocol: Gemini's wire", () => {
  it("puts the model in the path, the key in x-goog-api-key", () => {
    expect(nativeProtocol.path("txtC-2.5-pro", false)).toBe(
      "/v1beta/models/txtC-2.5-pro:generateContent",
    );
    expect(nativeProtocol.path("a/b", true)).toBe(
      "/v1beta/models/a%2Fb:streamGenerateContent?alt=sse",
    );
    expect(nativeProtocol.headers("k")).toEqual({ "x-goog-api-key": "k" });
  });

  it("a forwarded body loses a `model` that could contradict the path", () => {
    const body = { model: "other", contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    expect(nativeProtocol.forward(body, "txtC-2.5-pro", false, () => {})).toEqual({
      wire: { contents: body.contents },
      injectedUsage: false,
    });
  });
});
