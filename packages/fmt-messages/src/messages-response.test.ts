import type { Response } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { warnings } from "../test/helpers.js";
import {
  parseMessagesFinishReason,
  renderMessagesFinishReason,
} from "./map-messages-finish-reason.js";
import { parseMessagesUsage, renderMessagesUsage } from "./map-messages-usage.js";
import { parseMessagesRequest } from "./parse-messages-request.js";
import { parseMessagesResponse } from "./parse-messages-response.js";
import { renderMessagesResponse } from "./render-messages-response.js";
import { UNSIGNED_THINKING } from "./unsigned-thinking.js";

const response = (over: Partial<Response> = {}): Response => ({
  id: "chatcmpl-1",
  model: "txtA-5",
  created: 1_700_000_000,
  message: { role: "assistant", parts: [{ type: "text", text: "hi" }] },
  finishReason: { unified: "stop", raw: "stop" },
  usage: {
    inputTokens: 10,
    outputTokens: 2,
    cachedInputTokens: 4,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
  ...over,
});

describe("the client-facing result", () => {
  it("has exactly the fields of docs/api-reference.md's Messages-format result table", () => {
    expect(renderMessagesResponse(response())).toEqual({
      id: "chatcmpl-1",
      type: "message",
      role: "assistant",
      model: "txtA-5",
      content: [{ type: "text", text: "hi" }],
      stop_reason: "end_turn",
      stop_sequence: null,
      stop_details: null,
      usage: {
        input_tokens: 6,
        output_tokens: 2,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 4,
        cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
        service_tier: "standard",
        inference_geo: "not_available",
      },
    });
  });

  it("renders tool calls with their input, thinking with its signature, and output thinking tokens", () => {
    const wire = renderMessagesResponse(
      response({
        message: {
          role: "assistant",
          parts: [
            { type: "thinking", text: "plan", signature: "c2ln" },
            { type: "thinking", text: "unsigned" },
            { type: "tool-call", id: "call_1", name: "f", arguments: '{"a":[1,2]}' },
            { type: "tool-call", id: "call_2", name: "g", arguments: "" },
          ],
        },
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        stopSequence: "END",
        usage: {
          inputTokens: 1,
          outputTokens: 9,
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
          thinkingTokens: 5,
        },
      }),
    );
    expect(wire.content).toEqual([
      { type: "thinking", thinking: "plan", signature: "c2ln" },
      { type: "thinking", thinking: "unsigned", signature: UNSIGNED_THINKING },
      {
        type: "tool_use",
        id: "call_1",
        name: "f",
        input: { a: [1, 2] },
        caller: { type: "direct" },
      },
      { type: "tool_use", id: "call_2", name: "g", input: {}, caller: { type: "direct" } },
    ]);
    expect([wire.stop_reason, wire.stop_sequence]).toEqual(["tool_use", "END"]);
    expect(wire.usage.output_tokens_details).toEqual({ thinking_tokens: 5 });
  });

  it("drops what a messages result cannot carry, with warnings", () => {
    const { list, onWarning } = warnings();
    const wire = renderMessagesResponse(
      response({
        message: {
          role: "assistant",
          parts: [
            { type: "text", text: "a", signature: "gemini-sig" },
            { type: "image", source: { type: "url", url: "https://x.test/i.png" } },
            { type: "tool-call", id: "c", name: "f", arguments: "[1]" },
          ],
        },
        finishReason: { unified: "stop" },
        alternatives: [
          {
            index: 1,
            message: { role: "assistant", parts: [{ type: "text", text: "b" }] },
            finishReason: { unified: "stop" },
          },
        ],
        providerExtras: {
          gemini: {
            promptFeedback: { blockReason: "SAFETY" },
            safetyRatings: [{ category: "HARM_CATEGORY_HATE_SPEECH", probability: "LOW" }],
          },
        },
      }),
      { onWarning },
    );
    expect(wire.content).toEqual([
      { type: "text", text: "a" },
      { type: "tool_use", id: "c", name: "f", input: {}, caller: { type: "direct" } },
    ]);
    expect(list.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "choices"],
      ["dropped", "promptFeedback"],
      ["dropped", "choices[0].safetyRatings"],
      ["dropped", "choices[0].message.parts[0].signature"],
      ["dropped", "choices[0].message.parts[1]"],
      ["dropped", "choices[0].message.parts[2].arguments"],
    ]);
  });

  it("ignores caller on tool_use, unknown blocks and unknown fields; keeps citations", () => {
    const parsed = parseMessagesResponse({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "txtB-opus-4-8",
      content: [
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "q" } },
        { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] },
        {
          type: "text",
          text: "See",
          citations: [{ type: "web_search_result_location", url: "u" }],
        },
        { type: "tool_use", id: "toolu_1", name: "f", input: { x: 1 }, caller: { type: "direct" } },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      stop_details: null,
      container: { id: "c" },
      usage: { input_tokens: 3, output_tokens: 4, server_tool_use: { web_search_requests: 1 } },
    });
    expect(parsed.message.parts).toEqual([
      { type: "text", text: "See", citations: [{ type: "url", url: "u" }] },
      { type: "tool-call", id: "toolu_1", name: "f", arguments: '{"x":1}' },
    ]);
    expect(parsed.extras).toBeUndefined();
  });

  it("keeps stop_details through a same-format round trip", () => {
    const details = { type: "refusal", category: "cyber", explanation: "blocked" };
    const wire = renderMessagesResponse(
      parseMessagesResponse({
        id: "msg_1",
        model: "m",
        content: [],
        stop_reason: "refusal",
        stop_details: details,
        usage: { input_tokens: 1, output_tokens: 1 },
      }),
    );
    expect([wire.stop_reason, wire.stop_details]).toEqual(["refusal", details]);
  });
});

describe("usage semantics", () => {
  it("canonical input includes cache reads and writes; Anthropic input excludes them", () => {
    const wire = {
      input_tokens: 100,
      output_tokens: 40,
      cache_creation_input_tokens: 30,
      cache_read_input_tokens: 50,
      cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 10 },
      service_tier: "standard",
      inference_geo: "us",
      output_tokens_details: { thinking_tokens: 12 },
    };
    const usage = parseMessagesUsage(wire);
    expect(usage).toEqual({
      inputTokens: 180,
      outputTokens: 40,
      cachedInputTokens: 50,
      cacheWriteTokens: 30,
      thinkingTokens: 12,
      cacheWrite5mTokens: 20,
      cacheWrite1hTokens: 10,
      serviceTier: "standard",
      providerExtras: { anthropic: { inferenceGeo: "us" } },
    });
    expect(renderMessagesUsage(usage)).toEqual(wire);
  });

  it("reports cache writes without a ttl split as 5-minute writes", () => {
    expect(
      renderMessagesUsage({
        inputTokens: 500,
        outputTokens: 1,
        cachedInputTokens: 100,
        cacheWriteTokens: 300,
        thinkingTokens: 0,
      }),
    ).toMatchObject({
      input_tokens: 100,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 100,
      cache_creation: { ephemeral_5m_input_tokens: 300, ephemeral_1h_input_tokens: 0 },
    });
  });
});

describe("finish reasons by table, raw kept", () => {
  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["max_tokens", "length"],
    ["model_context_window_exceeded", "length"],
    ["tool_use", "tool-calls"],
    ["refusal", "content-filter"],
    ["pause_turn", "other"],
    ["a_future_reason", "other"],
  ])("%s is %s", (raw, unified) => {
    expect(parseMessagesFinishReason(raw)).toEqual({ unified, raw });
  });

  it("null is other, with no raw value", () => {
    expect(parseMessagesFinishReason(null)).toEqual({ unified: "other" });
  });

  it.each([
    [{ unified: "stop", raw: "stop_sequence" }, "stop_sequence"],
    [{ unified: "length", raw: "model_context_window_exceeded" }, "model_context_window_exceeded"],
    [{ unified: "stop", raw: "STOP" }, "end_turn"],
    [{ unified: "length", raw: "length" }, "max_tokens"],
    [{ unified: "tool-calls", raw: "tool_calls" }, "tool_use"],
    [{ unified: "content-filter", raw: "SAFETY" }, "refusal"],
    [{ unified: "error" }, null],
    [{ unified: "other" }, null],
    // Another upstream's unnamed reason ends the turn: a finished message's reason is never null.
    [{ unified: "other", raw: "OTHER" }, "end_turn"],
    [{ unified: "other", raw: "MALFORMED_FUNCTION_CALL" }, "end_turn"],
    [{ unified: "error", raw: "error" }, "end_turn"],
    [{ unified: "other", raw: "pause_turn" }, "pause_turn"],
  ] as const)("renders %j as %s", (finishReason, expected) => {
    expect(renderMessagesFinishReason(finishReason)).toBe(expected);
  });
});

describe("Gemini signatures on calls and text, for messages clients", () => {
  it("ride in carrier thinking blocks and come back on their call and text", () => {
    const parts = [
      { type: "thinking" as const, text: "plan" },
      { type: "tool-call" as const, id: "c1", name: "f", arguments: '{"a":1}', signature: "SIG1" },
      { type: "text" as const, text: "done" },
    ];
    const wire = renderMessagesResponse(
      response({
        message: { role: "assistant", parts },
        finishReason: { unified: "stop" },
      }),
    );
    expect(wire.content).toContainEqual({
      type: "thinking",
      thinking: "",
      signature: "interlingua.signature:c1:SIG1",
    });
    expect(parseMessagesResponse(wire).message.parts).toEqual(parts);
    // A client replays the content as its next request's assistant turn.
    const request = parseMessagesRequest({
      model: "m",
      max_tokens: 10,
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: wire.content },
      ],
    });
    expect(request.messages[1]?.parts).toEqual(parts);
  });
});
