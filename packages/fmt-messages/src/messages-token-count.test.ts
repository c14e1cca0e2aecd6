import { describe, expect, it } from "vitest";
import { messagesProtocol } from "./messages-protocol.js";

const count = messagesProtocol.tokenCount!;

describe("messagesProtocol.tokenCount: Anthropic's count_tokens", () => {
  it("reads a count body as a Messages request the codec parses", () => {
    const body = { model: "m", system: "be brief", messages: [{ role: "user", content: "hi" }] };
    const request = messagesProtocol.codec.request.parse(count.generation(body));
    expect(request.model).toBe("m");
    expect(request.messages).toHaveLength(1);
  });

  it("sends the prompt, thinking and tools, not the generation settings", () => {
    const generation = {
      model: "gateway-id",
      max_tokens: 1024,
      stream: false,
      temperature: 0.5,
      stop_sequences: ["x"],
      system: "s",
      messages: [{ role: "user", content: "hi" }],
      tools: [{ name: "t", input_schema: { type: "object" } }],
      thinking: { type: "enabled", budget_tokens: 2048 },
      context_management: { edits: [] },
    };
    expect(count.request(generation, "upstream-id")).toEqual({
      model: "upstream-id",
      system: "s",
      messages: [{ role: "user", content: "hi" }],
      tools: [{ name: "t", input_schema: { type: "object" } }],
      thinking: { type: "enabled", budget_tokens: 2048 },
      context_management: { edits: [] },
    });
    expect(count.path("upstream-id")).toBe("/v1/messages/count_tokens");
  });

  it("reads {input_tokens} and answers in it", () => {
    expect(count.read({ input_tokens: 42 })).toBe(42);
    expect(count.read({ input_tokens: -1 })).toBeUndefined();
    expect(count.read({ type: "error" })).toBeUndefined();
    expect(count.read(null)).toBeUndefined();
    expect(count.reply(7)).toEqual({ input_tokens: 7 });
  });
});
