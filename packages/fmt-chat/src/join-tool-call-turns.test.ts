import type { Message, Request, Warning } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { chat } from "./chat-codec.js";
import { chatProtocol } from "./chat-protocol.js";

const call = (id: string): Message => ({
  role: "assistant",
  parts: [{ type: "tool-call", id, name: "f", arguments: "{}" }],
});
const text = (t: string): Message => ({ role: "assistant", parts: [{ type: "text", text: t }] });
const result = (toolCallId: string) => ({ type: "tool-result" as const, toolCallId, content: [] });

function prepare(messages: Message[]) {
  const request = chat.request.parse({
    model: "m",
    messages: [{ role: "user", content: "x" }],
  }) as Request;
  const warnings: Warning[] = [];
  const prepared = chatProtocol.prepare?.({ ...request, messages }, (w) => warnings.push(w));
  return { messages: prepared?.messages, warnings };
}

describe("chatProtocol.prepare: a Gemini history's one-content-a-chunk turns", () => {
  it("joins assistant messages after tool calls, so the tool results follow their turn", () => {
    const { messages, warnings } = prepare([
      { role: "user", parts: [{ type: "text", text: "hi" }] },
      call("a"),
      call("b"),
      text(""),
      { role: "tool", parts: [result("a"), result("b")] },
    ]);
    expect(messages?.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(messages?.[1]?.parts.map((p) => p.type)).toEqual(["tool-call", "tool-call"]);
    // The call's join is said; the empty text, which says nothing, is not.
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([["mapped", "messages[2]"]]);
  });

  it("an empty text message after an assistant one joins it; other turns stay apart", () => {
    const { messages, warnings } = prepare([
      { role: "user", parts: [{ type: "text", text: "hi" }] },
      text("a"),
      text("b"),
      text(""),
      { role: "user", parts: [{ type: "text", text: "again" }] },
    ]);
    expect(messages?.map((m) => m.parts)).toEqual([
      [{ type: "text", text: "hi" }],
      [{ type: "text", text: "a" }],
      [{ type: "text", text: "b" }],
      [{ type: "text", text: "again" }],
    ]);
    expect(warnings).toEqual([]);
  });
});
