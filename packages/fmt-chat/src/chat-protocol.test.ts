import { describe, expect, it } from "vitest";
import { chatProtocol } from "./chat-protocol.js";

describe("chatProtocol: OpenAI's wire", () => {
  it("calls /v1/chat/completions with a bearer key", () => {
    expect(chatProtocol.path("txtA-5", true)).toBe("/v1/chat/completions");
    expect(chatProtocol.headers("sk-1")).toEqual({ authorization: "Bearer sk-1" });
  });

  it("a forwarded stream asks for usage when the client did not, and says so", () => {
    const body = { model: "alias", messages: [], stream: true };
    expect(chatProtocol.forward(body, "txtA-5", true, () => {})).toEqual({
      wire: { ...body, model: "txtA-5", stream_options: { include_usage: true } },
      injectedUsage: true,
    });
    const asked = { ...body, stream_options: { include_usage: true } };
    expect(chatProtocol.forward(asked, "txtA-5", true, () => {})).toEqual({
      wire: { ...asked, model: "txtA-5" },
      injectedUsage: false,
    });
    expect(chatProtocol.forward(body, "txtA-5", false, () => {}).injectedUsage).toBe(false);
  });
});
