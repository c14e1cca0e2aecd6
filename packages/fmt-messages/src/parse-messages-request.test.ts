import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { parseMessagesResponse } from "./parse-messages-response.js";

const valid = {
  model: "txtB-sonnet-4-6",
  max_tokens: 100,
  messages: [{ role: "user", content: "hi" }],
};

function rejection(
  wire: unknown,
  parse: (w: unknown) => unknown = parseMessagesRequest,
): GatewayError {
  try {
    parse(wire);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("expected a GatewayError");
}

describe("parse refuses invalid requests with a 400 naming the field", () => {
  it.each([null, undefined, [], "a string", 42, true])("a body of %j", (wire) => {
    const error = rejection(wire);
    expect([error.status, error.type]).toEqual([400, "invalid_request_error"]);
  });

  it("max_tokens is required", () => {
    const { max_tokens: _dropped, ...wire } = valid;
    const error = rejection(wire);
    expect([error.status, error.param, error.message]).toEqual([
      400,
      "max_tokens",
      "max_tokens: field required",
    ]);
  });

  it.each([
    [{ ...valid, max_tokens: 0 }, "max_tokens"],
    [{ ...valid, max_tokens: "100" }, "max_tokens"],
    [{ ...valid, temperature: 1.5 }, "temperature"],
    [{ ...valid, top_p: -0.1 }, "top_p"],
    [{ ...valid, stop_sequences: ["a", "b", "c", "d", "e"] }, "stop_sequences"],
    [{ ...valid, messages: [] }, "messages"],
    [{ ...valid, messages: [{ role: "robot", content: "x" }] }, "messages[0].role"],
    [
      {
        ...valid,
        messages: [
          {
            role: "system",
            content: [{ type: "image", source: { type: "url", url: "https://a.b/c.png" } }],
          },
        ],
      },
      "messages[0].content[0]",
    ],
    [
      {
        ...valid,
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: "x", cache_control: { type: "ephemeral", ttl: "2h" } }],
          },
        ],
      },
      "messages[0].content[0].cache_control.ttl",
    ],
    [
      { ...valid, messages: [{ role: "user", content: [{ type: "video", url: "x" }] }] },
      "messages[0].content[0].type",
    ],
    [{ ...valid, thinking: { type: "enabled" } }, "thinking.budget_tokens"],
    [{ ...valid, tool_choice: { type: "tool" } }, "tool_choice.name"],
    [{ ...valid, tools: [{ name: "f" }] }, "tools[0].input_schema"],
  ])("%j names %s", (wire, param) => {
    const error = rejection(wire);
    expect([error.status, error.param]).toEqual([400, param]);
    expect(error.message.startsWith(`${param}:`)).toBe(true);
  });

  it("refuses blocks in the wrong role", () => {
    const toolUseInUser = rejection({
      ...valid,
      messages: [{ role: "user", content: [{ type: "tool_use", id: "t", name: "f", input: {} }] }],
    });
    expect(toolUseInUser.param).toBe("messages[0].content[0]");
    const resultInAssistant = rejection({
      ...valid,
      messages: [{ role: "assistant", content: [{ type: "tool_result", tool_use_id: "t" }] }],
    });
    expect(resultInAssistant.param).toBe("messages[0].content[0]");
  });

  it("accepts the SDKs' null for unset optional fields", () => {
    const request = parseMessagesRequest({
      ...valid,
      metadata: { user_id: null },
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "x", cache_control: null, citations: null }],
        },
      ],
    });
    expect(request).toEqual({
      model: "txtB-sonnet-4-6",
      system: [],
      messages: [{ role: "user", parts: [{ type: "text", text: "x" }] }],
      sampling: { maxTokens: 100 },
      tools: [],
      stream: false,
    });
  });
});

// Issue 26, item 10: a malformed upstream reply is the upstream's fault (502), not the client's.
describe("parse refuses invalid responses as an upstream fault naming the field", () => {
  it.each([null, [], "x"])("a body of %j", (wire) => {
    expect(rejection(wire, parseMessagesResponse).status).toBe(502);
  });

  it("a malformed block of a known type is not mistaken for an unknown one", () => {
    const error = rejection(
      {
        id: "msg_1",
        model: "m",
        content: [{ type: "tool_use", id: "t", name: "f" }],
        stop_reason: "tool_use",
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      parseMessagesResponse,
    );
    expect(error.status).toBe(502);
    expect(error.message).toContain("content[0].input:");
  });
});

describe("system messages inside messages (Claude Code 2.x)", () => {
  it("join the system text in order; the turns around them stay as they were", () => {
    const request = parseMessagesRequest({
      model: "m",
      max_tokens: 10,
      system: "You are Claude Code.",
      messages: [
        { role: "user", content: "hi" },
        { role: "system", content: [{ type: "text", text: "# Environment" }] },
        { role: "assistant", content: "hello" },
      ],
    });
    expect(request.system).toEqual([
      { type: "text", text: "You are Claude Code." },
      { type: "text", text: "# Environment" },
    ]);
    expect(request.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  });
});
