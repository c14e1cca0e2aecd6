import { accumulateStream, type Response, responseToEvents } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { decodeResponsesEvents, encodeResponsesEvents, responses } from "./index.js";

/** Tools and items as Codex CLI sends them (its default configuration). */
const namespaceTool = {
  type: "namespace",
  name: "multi_agent_v1",
  description: "Sub-agents",
  tools: [
    {
      type: "function",
      name: "spawn_agent",
      description: "Start an agent",
      parameters: { type: "object", properties: { message: { type: "string" } } },
      strict: false,
    },
  ],
};
const customTool = {
  type: "custom",
  name: "apply_patch",
  description: "Edit files",
  format: { type: "grammar", syntax: "lark", definition: 'start: "*** Begin Patch"' },
};
const toolSearch = { type: "tool_search", execution: "client", description: "Find tools" };
const patch = "*** Begin Patch\n*** End Patch";

const body = {
  model: "gpt-5.1-codex",
  instructions: "You are Codex.",
  input: [
    { type: "message", role: "user", content: [{ type: "input_text", text: "fix it" }] },
    {
      type: "function_call",
      call_id: "call_ns",
      name: "spawn_agent",
      namespace: "multi_agent_v1",
      arguments: '{"message":"go"}',
    },
    { type: "function_call_output", call_id: "call_ns", output: "started" },
    { type: "custom_tool_call", call_id: "call_patch", name: "apply_patch", input: patch },
    { type: "custom_tool_call_output", call_id: "call_patch", output: "Done!" },
  ],
  tools: [namespaceTool, customTool, toolSearch],
  tool_choice: {
    type: "allowed_tools",
    mode: "auto",
    tools: [{ type: "custom", name: "apply_patch" }],
  },
  reasoning: { effort: "xhigh", summary: "auto" },
  stream: true,
};

describe("Codex CLI's Responses requests", () => {
  it("parse without a 400 and render back for the Responses API as they came", () => {
    const request = responses.request.parse(body);
    expect(request.tools.map((t) => (t.type === "provider" ? t.name : t.type))).toEqual([
      "namespace",
      "custom",
      "tool_search",
    ]);
    const assistant = request.messages[1];
    expect(assistant?.parts).toEqual([
      {
        type: "tool-call",
        id: "call_ns",
        name: "spawn_agent",
        namespace: "multi_agent_v1",
        arguments: '{"message":"go"}',
      },
    ]);
    expect(request.messages[3]?.parts[0]).toEqual({
      type: "tool-call",
      id: "call_patch",
      name: "apply_patch",
      arguments: patch,
      custom: true,
    });
    // The closest canonical values, for upstreams of other families.
    expect(request.toolChoice).toEqual({ type: "auto", allowed: ["apply_patch"] });
    expect(request.thinking).toMatchObject({ type: "enabled", effort: "high" });

    const wire = responses.request.render(request) as Record<string, unknown>;
    expect(wire["tools"]).toEqual([namespaceTool, customTool, toolSearch]);
    expect(wire["tool_choice"]).toEqual(body.tool_choice);
    expect(wire["reasoning"]).toEqual({ effort: "xhigh", summary: "auto" });
    expect(wire["input"]).toEqual([
      { role: "user", content: [{ type: "input_text", text: "fix it" }] },
      body.input[1],
      body.input[2],
      body.input[3],
      body.input[4],
    ]);
  });

  it("a forced custom tool is chosen as custom, a forced function as function", () => {
    const request = responses.request.parse({
      ...body,
      tool_choice: { type: "custom", name: "apply_patch" },
    });
    expect(request.toolChoice).toEqual({ type: "tool", name: "apply_patch" });
    const wire = responses.request.render(request) as Record<string, unknown>;
    expect(wire["tool_choice"]).toEqual({ type: "custom", name: "apply_patch" });
  });
});

describe("custom and namespaced calls in Responses answers", () => {
  const response: Response = {
    id: "resp_1",
    created: 1_700_000_000,
    model: "gpt-5.1-codex",
    message: {
      role: "assistant",
      parts: [
        { type: "tool-call", id: "c1", name: "apply_patch", arguments: patch, custom: true },
        {
          type: "tool-call",
          id: "c2",
          name: "spawn_agent",
          namespace: "multi_agent_v1",
          arguments: "{}",
        },
      ],
    },
    finishReason: { unified: "tool-calls" },
    usage: {
      inputTokens: 5,
      outputTokens: 5,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    },
  };

  it("render as custom_tool_call and namespaced function_call items, and parse back", () => {
    const object = responses.response.render(response);
    expect(object.output).toEqual([
      {
        id: "ctc_1_0",
        type: "custom_tool_call",
        status: "completed",
        call_id: "c1",
        name: "apply_patch",
        input: patch,
      },
      {
        id: "fc_1_1",
        type: "function_call",
        status: "completed",
        arguments: "{}",
        call_id: "c2",
        name: "spawn_agent",
        namespace: "multi_agent_v1",
      },
    ]);
    expect(responses.response.parse(object).message.parts).toEqual(response.message.parts);
  });

  it("stream as custom_tool_call_input events and decode back to the same parts", () => {
    const messages = encodeResponsesEvents(responseToEvents(response));
    const types = messages.map((m) => m.event);
    expect(types).toContain("response.custom_tool_call_input.delta");
    expect(types).toContain("response.custom_tool_call_input.done");
    const done = messages.find((m) => m.event === "response.custom_tool_call_input.done");
    expect(JSON.parse(done?.data ?? "{}")).toMatchObject({ input: patch });
    const decoded = accumulateStream(decodeResponsesEvents(messages));
    expect(decoded.message.parts).toEqual(response.message.parts);
  });
});
