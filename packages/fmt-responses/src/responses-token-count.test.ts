import { describe, expect, it } from "vitest";
import { responsesProtocol } from "./responses-protocol.js";

const count = responsesProtocol.tokenCount!;

describe("responsesProtocol.tokenCount: OpenAI's input_tokens", () => {
  it("sends what shapes the prompt, nothing OpenAI's count refuses", () => {
    const generation = {
      model: "gateway-id",
      input: [{ role: "user", content: "hi" }],
      instructions: "s",
      tools: [{ type: "function", name: "f", parameters: {} }],
      reasoning: { effort: "low" },
      store: false,
      stream: false,
      include: ["reasoning.encrypted_content"],
      max_output_tokens: 100,
      temperature: 1,
    };
    expect(count.request(generation, "gpt-x")).toEqual({
      model: "gpt-x",
      input: [{ role: "user", content: "hi" }],
      instructions: "s",
      tools: [{ type: "function", name: "f", parameters: {} }],
      reasoning: { effort: "low" },
    });
    expect(count.path("gpt-x")).toBe("/v1/responses/input_tokens");
    expect(count.modelOptional).toBe(true);
  });

  it("reads and answers OpenAI's response.input_tokens object", () => {
    expect(count.read({ object: "response.input_tokens", input_tokens: 9 })).toBe(9);
    expect(count.read({ error: {} })).toBeUndefined();
    expect(count.reply(9)).toEqual({ object: "response.input_tokens", input_tokens: 9 });
  });
});
