import type { AssistantPart, Response, StreamEvent } from "@interlingua/core-types";
import { accumulateStream, responseToEvents } from "@interlingua/core-types";
import { fc } from "@interlingua/core-types/testing";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "./parse-chat-request.js";
import { parseChatResponse } from "./parse-chat-response.js";
import { decodeChatMessages } from "./parse-chat-stream.js";
import { renderChatResponse } from "./render-chat-response.js";
import { encodeChatEvents } from "./render-chat-stream.js";

// Opaque tokens with characters JSON escapes, to catch any re-encoding.
const CLAUDE_SIG = 'EqoBCkgIARABGAIiQL2Uo+/=\\u00e9"x';
const GEMINI_SIG = "CiQB0e2Kb+7q/Xy==";

const response = (parts: AssistantPart[]): Response => ({
  id: "r1",
  model: "m",
  created: 1_700_000_000,
  message: { role: "assistant", parts },
  finishReason: { unified: "tool-calls" },
  usage: {
    inputTokens: 1,
    outputTokens: 1,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
});

/** The client appends `choices[0].message` as received, then its tool result. */
function nextTurn(message: unknown) {
  return parseChatRequest({
    model: "m",
    messages: [
      { role: "user", content: "weather?" },
      message,
      { role: "tool", tool_call_id: "call_1", content: "21C" },
    ],
  }).messages[1];
}

describe("reasoning through a chat tool loop (non-stream)", () => {
  it("an Anthropic thinking block and redacted thinking come back byte-identical", () => {
    const parts: AssistantPart[] = [
      { type: "thinking", text: "Let me check.", signature: CLAUDE_SIG },
      { type: "redacted-thinking", data: "RED+/==" },
      { type: "text", text: "Checking." },
      { type: "tool-call", id: "call_1", name: "weather", arguments: '{"city":"Paris"}' },
    ];
    const wire = JSON.parse(JSON.stringify(renderChatResponse(response(parts))));
    expect(wire.choices[0].message.reasoning_content).toBe("Let me check.");
    expect(nextTurn(wire.choices[0].message)).toStrictEqual({ role: "assistant", parts });
  });

  it("a Gemini thoughtSignature on a functionCall and on text comes back on the same part", () => {
    const parts: AssistantPart[] = [
      { type: "thinking", text: "plan" },
      { type: "text", text: "On it.", signature: "TEXT_SIG" },
      {
        type: "tool-call",
        id: "call_1",
        name: "weather",
        arguments: "{}",
        signature: GEMINI_SIG,
      },
      { type: "tool-call", id: "call_2", name: "time", arguments: "{}" },
    ];
    const wire = JSON.parse(JSON.stringify(renderChatResponse(response(parts))));
    expect(wire.choices[0].message.reasoning_details).toContainEqual({
      type: "reasoning.encrypted",
      data: GEMINI_SIG,
      id: "call_1",
      format: "google-gemini-v1",
      index: 2,
    });
    expect(nextTurn(wire.choices[0].message)).toStrictEqual({ role: "assistant", parts });
    // And an upstream chat response carrying them parses to the same parts.
    expect(parseChatResponse(wire).message.parts).toStrictEqual(parts);
  });

  it("plain reasoning without signatures stays reasoning_content only", () => {
    const wire = renderChatResponse(response([{ type: "thinking", text: "t" }]));
    expect(wire.choices[0]?.message.reasoning_details).toBeUndefined();
  });

  it("LiteLLM's thinking_blocks are read too", () => {
    expect(
      nextTurn({
        role: "assistant",
        content: null,
        reasoning_content: "ignored when blocks are given",
        thinking_blocks: [
          { type: "thinking", thinking: "hmm", signature: CLAUDE_SIG },
          { type: "redacted_thinking", data: "R" },
        ],
        tool_calls: [{ id: "call_1", type: "function", function: { name: "w", arguments: "{}" } }],
      }),
    ).toStrictEqual({
      role: "assistant",
      parts: [
        { type: "thinking", text: "hmm", signature: CLAUDE_SIG },
        { type: "redacted-thinking", data: "R" },
        { type: "tool-call", id: "call_1", name: "w", arguments: "{}" },
      ],
    });
  });

  it("reasoning_details fragments of one index (a client that concatenated deltas) merge", () => {
    expect(
      nextTurn({
        role: "assistant",
        content: "",
        reasoning_details: [
          { type: "reasoning.text", text: "a", index: 0, format: "anthropic-claude-v1" },
          { type: "reasoning.text", text: "b", index: 0 },
          { type: "reasoning.text", text: "", signature: CLAUDE_SIG, index: 0 },
        ],
        tool_calls: [{ id: "call_1", type: "function", function: { name: "w", arguments: "{}" } }],
      })?.parts[0],
    ).toStrictEqual({ type: "thinking", text: "ab", signature: CLAUDE_SIG });
  });
});

describe("reasoning through a chat tool loop (stream)", () => {
  const events: StreamEvent[] = [
    { type: "response-start", id: "r1", model: "m", created: 1_700_000_000 },
    { type: "part-start", index: 0, kind: "thinking" },
    { type: "thinking-delta", index: 0, delta: "Let me " },
    { type: "thinking-delta", index: 0, delta: "check." },
    { type: "signature-delta", index: 0, signature: CLAUDE_SIG },
    { type: "part-end", index: 0 },
    { type: "redacted-thinking", index: 1, data: "RED" },
    { type: "part-end", index: 1 },
    { type: "tool-call-start", index: 2, id: "call_1", name: "weather" },
    { type: "signature-delta", index: 2, signature: GEMINI_SIG },
    { type: "tool-arguments-delta", index: 2, delta: '{"city":"Paris"}' },
    { type: "part-end", index: 2 },
    { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" } },
  ];

  it("decodes back to the same events", () => {
    expect(decodeChatMessages(encodeChatEvents(events))).toStrictEqual(events);
  });

  it("a client merging deltas by hand sends a message that parses to the streamed parts", () => {
    // What an OpenAI-SDK user does: concatenate content/reasoning, collect tool calls and
    // reasoning_details entries.
    const message: Record<string, unknown> & {
      reasoning_details: unknown[];
      tool_calls: { id: string; type: string; function: { name: string; arguments: string } }[];
    } = {
      role: "assistant",
      content: "",
      reasoning_content: "",
      reasoning_details: [],
      tool_calls: [],
    };
    for (const m of encodeChatEvents(events)) {
      if (m.data === "[DONE]") continue;
      const delta = JSON.parse(m.data).choices[0]?.delta ?? {};
      if (delta.content) message.content += delta.content;
      if (delta.reasoning_content) message.reasoning_content += delta.reasoning_content;
      if (delta.reasoning_details) message.reasoning_details.push(...delta.reasoning_details);
      for (const call of delta.tool_calls ?? []) {
        message.tool_calls[call.index] ??= {
          id: call.id,
          type: "function",
          function: { name: call.function.name, arguments: "" },
        };
        const slot = message.tool_calls[call.index];
        if (slot === undefined) continue;
        slot.function.arguments += call.function.arguments;
      }
    }
    const streamed = accumulateStream(events).message;
    expect(nextTurn(message)).toStrictEqual(streamed);
  });

  it("OpenRouter's style (text in both reasoning and reasoning_details) is not doubled", () => {
    const head = { id: "gen-1", object: "chat.completion.chunk", created: 1, model: "g" };
    const chunk = (delta: object, finish: string | null = null) =>
      JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason: finish }] });
    const decoded = decodeChatMessages(
      [
        chunk({
          role: "assistant",
          reasoning: "think",
          reasoning_details: [{ type: "reasoning.text", text: "think", index: 0 }],
        }),
        chunk({
          reasoning_details: [
            { type: "reasoning.encrypted", data: GEMINI_SIG, id: "tool_w", index: 0 },
          ],
        }),
        chunk({
          tool_calls: [
            { index: 0, id: "tool_w", type: "function", function: { name: "w", arguments: "{}" } },
          ],
        }),
        chunk({}, "tool_calls"),
      ].map((data) => ({ data })),
    );
    const message = accumulateStream(decoded).message;
    expect(message?.parts).toStrictEqual([
      { type: "thinking", text: "think" },
      { type: "tool-call", id: "tool_w", name: "w", arguments: "{}", signature: GEMINI_SIG },
    ]);
  });
});

describe("property: what a chat client sends back is what the upstream sent", () => {
  // Opaque tokens with the characters a naive re-encoding would break.
  const opaque = fc.stringMatching(/^[A-Za-z0-9+/=:"\\é-]{1,24}$/);
  const part: fc.Arbitrary<AssistantPart> = fc.oneof(
    // Unsigned thinking has text: an empty one has no frame in a chat stream (README).
    fc.record({ type: fc.constant("thinking" as const), text: fc.string(), signature: opaque }),
    fc.record({ type: fc.constant("thinking" as const), text: fc.string({ minLength: 1 }) }),
    fc.record({ type: fc.constant("redacted-thinking" as const), data: opaque }),
    fc.record(
      { type: fc.constant("text" as const), text: fc.string(), signature: opaque },
      { requiredKeys: ["type", "text"] },
    ),
    fc.record(
      {
        type: fc.constant("tool-call" as const),
        id: fc.stringMatching(/^call_[a-z0-9]{1,6}$/),
        name: fc.constant("f"),
        arguments: fc.constantFrom("{}", '{"a":1}'),
        signature: opaque,
      },
      { requiredKeys: ["type", "id", "name", "arguments"] },
    ),
  );

  /**
   * Chat's one slot per kind: reasoning first (each thinking / redacted part on its own when
   * reasoning_details is needed, else joined), then the text joined (signed with the first
   * text signature), then the calls in order, each with its own signature.
   */
  function chatForm(parts: AssistantPart[]): AssistantPart[] {
    const needsDetails = parts.some(
      (p) => p.type === "redacted-thinking" || ("signature" in p && p.signature !== undefined),
    );
    const thinking = parts.filter((p) => p.type === "thinking" || p.type === "redacted-thinking");
    const out: AssistantPart[] = [];
    if (needsDetails) out.push(...thinking);
    else {
      const joined = thinking.map((p) => (p.type === "thinking" ? p.text : "")).join("");
      if (joined !== "") out.push({ type: "thinking", text: joined });
    }
    const texts = parts.filter((p) => p.type === "text");
    const text = texts.map((p) => p.text).join("");
    const signature = texts.find((p) => p.signature !== undefined)?.signature;
    if (text !== "" || signature !== undefined) {
      out.push(
        signature === undefined ? { type: "text", text } : { type: "text", text, signature },
      );
    }
    out.push(...parts.filter((p) => p.type === "tool-call"));
    return out;
  }

  it("non-stream and stream alike, for any mix of signed and opaque parts", () => {
    fc.assert(
      fc.property(
        fc.array(part, { maxLength: 6 }).filter((parts) => {
          const ids = parts.flatMap((p) => (p.type === "tool-call" ? [p.id] : []));
          return new Set(ids).size === ids.length;
        }),
        (generated) => {
          const parts: AssistantPart[] = JSON.parse(JSON.stringify(generated));
          const expected = { role: "assistant", parts: chatForm(parts) };
          const wire = JSON.parse(JSON.stringify(renderChatResponse(response(parts))));
          expect(nextTurn(wire.choices[0].message)).toStrictEqual(expected);
          // A stream gives the same parts in chat's fixed order (a chat stream orders parts by
          // arrival, and adjacent thinking parts have no boundary in it: README).
          // An empty unsigned text part sends nothing, so it is no boundary either.
          const streamedParts = parts.filter(
            (p) => !(p.type === "text" && p.text === "" && p.signature === undefined),
          );
          const adjacentThinking = streamedParts.some(
            (p, i) => p.type === "thinking" && streamedParts[i + 1]?.type === "thinking",
          );
          if (adjacentThinking) return;
          const streamed = accumulateStream(
            decodeChatMessages(encodeChatEvents(responseToEvents(response(parts)))),
          );
          expect(chatForm(streamed.message.parts ?? [])).toStrictEqual(expected.parts);
        },
      ),
      { numRuns: 300 },
    );
  });
});
