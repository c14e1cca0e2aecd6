import { describe, expect, it } from "vitest";
import { accumulateStream } from "./accumulate-stream.js";
import {
  clientToolOrigins,
  liftClientToolCalls,
  liftingClientToolCalls,
  lowerClientTools,
} from "./client-tools.js";
import type { Request } from "./request.js";
import type { Response } from "./response.js";
import { responseToEvents } from "./response-to-events.js";
import type { StreamEvent } from "./stream-event.js";
import type { Warning } from "./warning.js";

const grammar = 'start: "*** Begin Patch"';
const request: Request = {
  model: "m",
  system: [],
  sampling: {},
  stream: false,
  tools: [
    {
      type: "provider",
      provider: "openai",
      name: "namespace",
      options: {
        name: "multi_agent_v1",
        description: "Sub-agents",
        tools: [{ type: "function", name: "spawn_agent", parameters: { type: "object" } }],
      },
    },
    {
      type: "provider",
      provider: "openai",
      name: "custom",
      options: {
        name: "apply_patch",
        description: "Edit files",
        format: { type: "grammar", syntax: "lark", definition: grammar },
      },
    },
    { type: "provider", provider: "openai", name: "tool_search", options: {} },
  ],
  messages: [
    { role: "user", parts: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "a",
          name: "spawn_agent",
          namespace: "multi_agent_v1",
          arguments: "{}",
        },
        { type: "tool-call", id: "b", name: "apply_patch", arguments: "*** Begin", custom: true },
      ],
    },
    {
      role: "tool",
      parts: [
        { type: "tool-result", toolCallId: "a", name: "spawn_agent", content: [] },
        { type: "tool-result", toolCallId: "b", name: "apply_patch", content: [] },
      ],
    },
  ],
};

describe("lowerClientTools", () => {
  it("makes namespace and custom tools function tools, the history's calls too; drops tool_search", () => {
    const warnings: Warning[] = [];
    const lowered = lowerClientTools(request, (w) => warnings.push(w));
    expect(lowered.tools.map((t) => (t.type === "function" ? t.name : t.type))).toEqual([
      "multi_agent_v1__spawn_agent",
      "apply_patch",
    ]);
    const custom = lowered.tools[1];
    expect(custom?.type === "function" && custom.description).toContain(grammar);
    expect(custom?.type === "function" && custom.parameters).toMatchObject({
      required: ["input"],
    });
    expect(lowered.messages[1]?.parts).toEqual([
      { type: "tool-call", id: "a", name: "multi_agent_v1__spawn_agent", arguments: "{}" },
      { type: "tool-call", id: "b", name: "apply_patch", arguments: '{"input":"*** Begin"}' },
    ]);
    expect(lowered.messages[2]?.parts[0]).toMatchObject({ name: "multi_agent_v1__spawn_agent" });
    // tool_search has nothing to search here: every tool is already offered.
    expect(warnings.map((w) => `${w.feature}=${w.type}`)).toEqual(["tools.tool_search=mapped"]);
  });

  it("leaves a request without them as it is", () => {
    const plain: Request = { ...request, tools: [], messages: [request.messages[0]!] };
    expect(lowerClientTools(plain, () => {})).toBe(plain);
  });
});

describe("lifting calls back", () => {
  const origins = clientToolOrigins(request.tools);
  const reply: Response = {
    id: "r",
    model: "m",
    created: 1,
    message: {
      role: "assistant",
      parts: [
        {
          type: "tool-call",
          id: "x",
          name: "multi_agent_v1__spawn_agent",
          arguments: '{"message":"hi"}',
        },
        {
          type: "tool-call",
          id: "y",
          name: "apply_patch",
          arguments: '{"input":"a\\n\\"b\\""}',
        },
        { type: "tool-call", id: "z", name: "other", arguments: "{}" },
      ],
    },
    finishReason: { unified: "tool-calls" },
    usage: {
      inputTokens: 1,
      outputTokens: 1,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    },
  };
  const lifted = [
    {
      type: "tool-call",
      id: "x",
      name: "spawn_agent",
      namespace: "multi_agent_v1",
      arguments: '{"message":"hi"}',
    },
    { type: "tool-call", id: "y", name: "apply_patch", custom: true, arguments: 'a\n"b"' },
    { type: "tool-call", id: "z", name: "other", arguments: "{}" },
  ];

  it("non-stream: namespaced calls get their namespace, custom calls their raw input", () => {
    expect(liftClientToolCalls(reply, origins).message.parts).toEqual(lifted);
  });

  it("stream: the same, whatever the argument fragments", () => {
    // Split every arguments delta into one-character fragments, as a chat upstream may stream.
    const events = responseToEvents(reply).flatMap((e): StreamEvent[] =>
      e.type === "tool-arguments-delta" ? [...e.delta].map((delta) => ({ ...e, delta })) : [e],
    );
    const decoder = liftingClientToolCalls<StreamEvent>(
      { push: (event, emit) => emit(event), end: () => {} },
      origins,
    );
    const out: StreamEvent[] = [];
    for (const event of events) decoder.push(event, (e) => out.push(e));
    decoder.end((e) => out.push(e));
    expect(accumulateStream(out).message.parts).toEqual(lifted);
  });
});
