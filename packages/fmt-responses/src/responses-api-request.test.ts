import type { Request } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { responses } from "./responses-api-codec.js";
import { interlinguaResponses } from "./responses-codec.js";

const request: Request = {
  model: "gpt-5.1-codex-max",
  system: [{ type: "text", text: "Be brief." }],
  messages: [
    { role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] },
    {
      role: "assistant",
      parts: [
        { type: "thinking", text: "", signature: "gAAAAB-opaque" },
        { type: "tool-call", id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
      ],
    },
    {
      role: "tool",
      parts: [
        {
          type: "tool-result",
          toolCallId: "call_1",
          // Implied by the call it answers, so parse puts it back.
          name: "get_weather",
          content: [{ type: "text", text: "21" }],
        },
      ],
    },
  ],
  sampling: { maxTokens: 500 },
  tools: [
    { type: "function", name: "get_weather", parameters: { type: "object" } },
    { type: "function", name: "now", description: "The time", parameters: { type: "object" } },
  ],
  thinking: { type: "enabled", effort: "high", includeThoughts: true },
  stream: false,
};

describe("responses.request.render", () => {
  it("writes OpenAI's shape: instructions, flat tools, max_output_tokens, items", () => {
    const warnings: string[] = [];
    const body = responses.request.render(request, {
      onWarning: (w) => warnings.push(w.feature),
    });
    expect(body).toEqual({
      model: "gpt-5.1-codex-max",
      instructions: "Be brief.",
      input: [
        { role: "user", content: [{ type: "input_text", text: "Weather in Paris?" }] },
        { type: "reasoning", summary: [], encrypted_content: "gAAAAB-opaque" },
        {
          type: "function_call",
          call_id: "call_1",
          name: "get_weather",
          arguments: '{"city":"Paris"}',
        },
        { type: "function_call_output", call_id: "call_1", output: "21" },
      ],
      max_output_tokens: 500,
      tools: [
        { type: "function", name: "get_weather", parameters: { type: "object" } },
        {
          type: "function",
          name: "now",
          description: "The time",
          parameters: { type: "object" },
        },
      ],
      reasoning: { effort: "high", summary: "auto" },
    });
    // A flat tool without description loses nothing: no "mapped" warning, unlike the spec shape.
    expect(warnings).toEqual([]);
    expect(responses.request.parse(body)).toEqual(request);
  });

  it("the spec codec keeps its own shape for the same request", () => {
    const body = interlinguaResponses.request.render(request, { onWarning: () => {} });
    expect(body.max_tokens).toBe(500);
    expect(body.instructions).toBeUndefined();
    expect(body.tools?.[0]).toEqual({
      type: "function",
      function: { name: "get_weather", description: "", parameters: { type: "object" } },
    });
  });

  it("several system texts stay a leading system item", () => {
    const body = responses.request.render({
      ...request,
      system: [
        { type: "text", text: "One." },
        { type: "text", text: "Two." },
      ],
    });
    expect(body.instructions).toBeUndefined();
    expect(body.input[0]).toEqual({
      role: "system",
      content: [
        { type: "input_text", text: "One." },
        { type: "input_text", text: "Two." },
      ],
    });
  });
});
