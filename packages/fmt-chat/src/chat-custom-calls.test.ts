import { emptyUsage, type Response } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { parseChatResponse } from "./parse-chat-response.js";
import { renderChatResponse } from "./render-chat-response.js";
import { encodeChatEvents } from "./render-chat-stream.js";

// A custom (free-form input) tool's call, lifted from a provider that only has function tools,
// reaches a chat client as OpenAI writes it: `{type: "custom", custom: {name, input}}`.

const response: Response = {
  id: "c1",
  model: "m",
  created: 1,
  message: {
    role: "assistant",
    parts: [
      { type: "tool-call", id: "call_1", name: "patch", arguments: "*** Begin", custom: true },
    ],
  },
  finishReason: { unified: "tool-calls" },
  usage: emptyUsage(),
};

describe("custom tool calls on chat", () => {
  it("a reply writes the raw input, and reads back the same", () => {
    const rendered = renderChatResponse(response);
    expect(rendered.choices[0]?.message.tool_calls).toStrictEqual([
      { id: "call_1", type: "custom", custom: { name: "patch", input: "*** Begin" } },
    ]);
    expect(parseChatResponse(rendered).message.parts).toStrictEqual(response.message.parts);
  });

  it("a stream writes the call and its input deltas under `custom`", () => {
    const chunks = encodeChatEvents([
      { type: "response-start", id: "c1", model: "m", created: 1 },
      { type: "tool-call-start", index: 0, id: "call_1", name: "patch", custom: true },
      { type: "tool-arguments-delta", index: 0, delta: "*** " },
      { type: "tool-arguments-delta", index: 0, delta: "Begin" },
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "tool-calls" } },
    ]);
    const calls = chunks
      .filter((c) => c.data !== "[DONE]")
      .flatMap((c) =>
        JSON.parse(c.data).choices.flatMap(
          (ch: { delta: { tool_calls?: unknown[] } }) => ch.delta.tool_calls ?? [],
        ),
      );
    expect(calls).toStrictEqual([
      { index: 0, id: "call_1", type: "custom", custom: { name: "patch", input: "" } },
      { index: 0, custom: { input: "*** " } },
      { index: 0, custom: { input: "Begin" } },
    ]);
  });
});
