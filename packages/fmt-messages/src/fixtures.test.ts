import { accumulateStream, type Response, type StreamEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { decodeAll, fixtureMessages, readJsonFixture } from "../test/helpers.js";
import { normalizeMessagesResponse } from "./normalize-messages.js";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { renderMessagesResponse } from "./render-messages-response.js";

const CLEAR_THINKING_SIGNATURE =
  "EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Ptl3b0dcQv/VeJBNbejNWIWRBn+KPNEgz6HWtKx7p+QRgKsEoaDGjsiqfht7gTRFYHiyIwD1VSmNqHxv3wy8KEMP+LYb/TC4UH3H97tuoaADARFFcA0phdfxnzKQxFnc9lwY+dKlzUsaKSUAFeu1bDL5ikZJ1vL0Fkz6JjoFke0L/wOJRIUDUlDUOFJ1tZ3ea7g6LGE/5hwuvWgLwewdcm64d+43l7F57XrOmqNd6flI2K/oPr/4yzNgvi/EhT6Ca17BgB";

/** The recordings' usage blocks, all of which report no cache activity. */
const noCache = { cachedInputTokens: 0, cacheWriteTokens: 0, thinkingTokens: 0 };

const decodeFixture = (name: string): StreamEvent[] => decodeAll(fixtureMessages(name));

describe("recorded streams decode and accumulate to their whole content", () => {
  it("anthropic-text", () => {
    expect(accumulateStream(decodeFixture("anthropic-text.chunks.txt"))).toEqual({
      id: "msg_01QC4g3HwBThD4BaNtBckFDJ",
      model: "claude-sonnet-4-5-20250929",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "text",
            text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
          },
        ],
      },
      finishReason: { unified: "stop", raw: "end_turn" },
      usage: {
        inputTokens: 12,
        outputTokens: 30,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
        providerExtras: { anthropic: { inferenceGeo: "not_available" } },
      },
    } satisfies Response);
  });

  it("anthropic-clear-thinking: thinking text and its signature byte for byte", () => {
    expect(accumulateStream(decodeFixture("anthropic-clear-thinking.1.chunks.txt"))).toEqual({
      id: "msg_01Y6V41gqPaKWEw7iPouH7iW",
      model: "claude-sonnet-4-5-20250929",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "thinking",
            text: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
            signature: CLEAR_THINKING_SIGNATURE,
          },
          { type: "text", text: "925 ÷ 5 = 185" },
        ],
      },
      finishReason: { unified: "stop", raw: "end_turn" },
      usage: {
        inputTokens: 69,
        outputTokens: 53,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
        providerExtras: { anthropic: { inferenceGeo: "not_available" } },
      },
    } satisfies Response);
  });

  it("anthropic-json-tool: the tool call with its streamed JSON arguments", () => {
    const result = accumulateStream(decodeFixture("anthropic-json-tool.1.chunks.txt"));
    expect(result).toEqual({
      id: "msg_01K2JbSUMYhez5RHoK9ZCj9U",
      model: "claude-haiku-4-5-20251001",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "tool-call",
            id: "toolu_01KFbKqPYSuAKujiL6mTfzYA",
            name: "json",
            arguments:
              '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}',
          },
        ],
      },
      finishReason: { unified: "tool-calls", raw: "tool_use" },
      usage: {
        inputTokens: 849,
        outputTokens: 47,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
      },
    } satisfies Response);
  });

  it("anthropic-tool-no-args: a call that streamed no arguments has arguments {}", () => {
    expect(accumulateStream(decodeFixture("anthropic-tool-no-args.chunks.txt"))).toEqual({
      id: "msg_01GE2RKp1VYsPzdFs3sS9z5S",
      model: "claude-sonnet-4-5-20250929",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          { type: "text", text: "I'll update the issue list for you." },
          {
            type: "tool-call",
            id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP",
            name: "updateIssueList",
            arguments: "{}",
          },
        ],
      },
      finishReason: { unified: "tool-calls", raw: "tool_use" },
      usage: {
        inputTokens: 565,
        outputTokens: 48,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
      },
    } satisfies Response);
  });

  it("anthropic-refusal: no content, refusal kept raw as content-filter", () => {
    expect(accumulateStream(decodeFixture("anthropic-refusal.chunks.txt"))).toEqual({
      id: "msg_01RefusalStreamAbcdefghijk",
      model: "claude-fable-5",
      created: 0,
      message: { role: "assistant", parts: [] },
      finishReason: {
        unified: "content-filter",
        raw: "refusal",
        category: "cyber",
        explanation:
          "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
      },
      usage: {
        inputTokens: 18,
        outputTokens: 5,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
        providerExtras: { anthropic: { inferenceGeo: "not_available" } },
      },
    } satisfies Response);
  });

  it("anthropic-message-delta-input-tokens: input_tokens in message_delta replaces message_start's", () => {
    const events = decodeFixture("anthropic-message-delta-input-tokens.chunks.txt");
    expect(events.filter((e) => e.type === "usage").map((e) => e.usage.inputTokens)).toEqual([
      43, 61,
    ]);
    expect(accumulateStream(events)).toEqual({
      id: "msg_3196a1cc08de4d76b85b8f5777c0d42b",
      model: "claude-opus-4-5-20251101",
      created: 0,
      message: { role: "assistant", parts: [{ type: "text", text: "pong" }] },
      finishReason: { unified: "stop", raw: "end_turn" },
      usage: { inputTokens: 61, outputTokens: 2, ...noCache },
    } satisfies Response);
  });

  it("duplicate-message-start: one response-start, input kept, cumulative output", () => {
    const events = decodeFixture("duplicate-message-start.chunks.txt");
    expect(events.filter((e) => e.type === "response-start")).toEqual([
      { type: "response-start", id: "msg_dup", model: "claude-3-haiku-20240307", created: 0 },
    ]);
    expect(accumulateStream(events)).toEqual({
      id: "msg_dup",
      model: "claude-3-haiku-20240307",
      created: 0,
      message: { role: "assistant", parts: [{ type: "text", text: "Hello, World!" }] },
      finishReason: { unified: "stop", raw: "end_turn" },
      usage: { inputTokens: 17, outputTokens: 227, ...noCache },
    } satisfies Response);
  });

  it("ping events produce nothing", () => {
    expect(decodeAll([{ event: "ping", data: '{"type":"ping"}' }])).toEqual([]);
  });
});

describe("recorded non-streamed responses parse to their whole content", () => {
  it("anthropic-text.json", () => {
    expect(parseMessagesResponse(readJsonFixture("anthropic-text.json"))).toEqual({
      id: "msg_01VdEjxAP5ahtHKrrRdNBteQ",
      model: "claude-sonnet-4-5-20250929",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "text",
            text: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?",
          },
        ],
      },
      finishReason: { unified: "stop", raw: "end_turn" },
      usage: {
        inputTokens: 12,
        outputTokens: 29,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
        providerExtras: { anthropic: { inferenceGeo: "not_available" } },
      },
    } satisfies Response);
  });

  it("anthropic-clear-thinking.1.json", () => {
    expect(parseMessagesResponse(readJsonFixture("anthropic-clear-thinking.1.json"))).toEqual({
      id: "msg_01XrsJCi8CQoLcnnWdY8RsJz",
      model: "claude-sonnet-4-5-20250929",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "thinking",
            text: "925 divided by 5 = 185",
            signature:
              "Er4BCkYICxgCKkCoxqLHLrx4mFL9Ox7/aHKht87WDzXfvZ7qbZKSnHV8imA5b3LXxuVqcXQ9z5sXwDx20JIW/+6DJehOSNK72L83Egx0T9s7VzB6QUK9g5kaDO9lGaWN5CPEDJU0lyIw4+Ed3q4N9w+16h3cfQ+9stJXHCl+1nYDxjIOLcyJT8Ug/LTmtlp4bbxWmmfNicayKiasdReHiOnqz1sKEF0pR4kcnF5mQGdLxk8q3A3NY+wGsH8MtUIqxRgB",
          },
          { type: "text", text: "925 ÷ 5 = 185" },
        ],
      },
      finishReason: { unified: "stop", raw: "end_turn" },
      usage: {
        inputTokens: 69,
        outputTokens: 33,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
        providerExtras: { anthropic: { inferenceGeo: "not_available" } },
      },
    } satisfies Response);
  });

  it("anthropic-json-tool.1.json: input becomes a JSON arguments string", () => {
    const response = parseMessagesResponse(readJsonFixture("anthropic-json-tool.1.json"));
    expect(response).toEqual({
      id: "msg_0191iYfpERYfS27xLsdW2nbb",
      model: "claude-haiku-4-5-20251001",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "tool-call",
            id: "toolu_01Q9ExVZnzZj7E2QQYHYtNUa",
            name: "json",
            arguments:
              '{"elements":[{"location":"San Francisco","temperature":-5,"condition":"snowy"},{"location":"London","temperature":0,"condition":"snowy"},{"location":"Paris","temperature":23,"condition":"cloudy"},{"location":"Berlin","temperature":-9,"condition":"snowy"}]}',
          },
        ],
      },
      finishReason: { unified: "tool-calls", raw: "tool_use" },
      usage: {
        inputTokens: 1151,
        outputTokens: 87,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
      },
    } satisfies Response);
  });

  it("anthropic-refusal.json: stop_details kept in extras", () => {
    expect(parseMessagesResponse(readJsonFixture("anthropic-refusal.json"))).toEqual({
      id: "msg_01RefusalExampleAbcdefghijk",
      model: "claude-fable-5",
      created: 0,
      message: { role: "assistant", parts: [] },
      finishReason: {
        unified: "content-filter",
        raw: "refusal",
        category: "cyber",
        explanation:
          "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
      },
      usage: {
        inputTokens: 18,
        outputTokens: 5,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
        providerExtras: { anthropic: { inferenceGeo: "not_available" } },
      },
      extras: {
        messages: {
          stop_details: {
            type: "refusal",
            category: "cyber",
            explanation:
              "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
            recommended_model: "claude-fable-5",
          },
        },
      },
    } satisfies Response);
  });

  it("anthropic-tool-no-args.json", () => {
    expect(parseMessagesResponse(readJsonFixture("anthropic-tool-no-args.json"))).toEqual({
      id: "msg_01GCBaV8gyWAYgMVggRqZbuQ",
      model: "claude-3-opus-20240229",
      created: 0,
      message: {
        role: "assistant",
        parts: [
          {
            type: "text",
            text: "<thinking>\nThe updateIssueList tool was provided in the list of available functions. The tool has no required parameters, so it can be called without any additional information needed from the user.\n</thinking>\n\nOkay, I will update the current issue list:",
          },
          {
            type: "tool-call",
            id: "toolu_01LRmxn9vGM1d2DZSDBowdZ1",
            name: "updateIssueList",
            arguments: "{}",
          },
        ],
      },
      finishReason: { unified: "tool-calls", raw: "tool_use" },
      usage: {
        inputTokens: 602,
        outputTokens: 93,
        ...noCache,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        serviceTier: "standard",
      },
    } satisfies Response);
  });

  it.each([
    "anthropic-text.json",
    "anthropic-clear-thinking.1.json",
    "anthropic-json-tool.1.json",
    "anthropic-refusal.json",
    "anthropic-tool-no-args.json",
  ])("%s re-renders as its normal form (law 1 on a recording)", (name) => {
    const wire = readJsonFixture(name);
    expect(renderMessagesResponse(parseMessagesResponse(wire))).toEqual(
      normalizeMessagesResponse(wire),
    );
  });
});
