import { readFileSync } from "node:fs";
import type { Response, ResponseBase, UnifiedFinishReason, Warning } from "@interlingua/core-types";
import { GatewayError } from "@interlingua/errors";
import { describe, expect, it } from "vitest";
import {
  parseInterlinguaResponsesFinishReason,
  parseResponsesFinishReason,
  renderInterlinguaResponsesFinishReason,
  renderResponsesFinishReason,
} from "./map-responses-finish-reason.js";
import { parseInterlinguaResponsesResponse } from "./parse-responses-response.js";
import { renderInterlinguaResponsesResponse } from "./render-responses-response.js";

const fixture = (name: string): unknown =>
  JSON.parse(
    readFileSync(new URL(`../../../fixtures/openai-responses/${name}`, import.meta.url), "utf8"),
  );

const base: ResponseBase = {
  id: "resp_1",
  model: "txtA-5.2-pro",
  created: 1_765_000_000,
  usage: {
    inputTokens: 40,
    outputTokens: 12,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
};

describe("responses result", () => {
  it("tool_calls in the result carry arguments as a JSON string", () => {
    const response: Response = {
      ...base,
      message: {
        role: "assistant",
        parts: [
          {
            type: "tool-call",
            id: "call_a",
            name: "get_weather",
            arguments: '{"city":"Paris"}',
          },
          { type: "tool-call", id: "call_b", name: "get_time", arguments: "" },
        ],
      },
      finishReason: { unified: "tool-calls", raw: "tool_use" },
    };
    const wire = renderInterlinguaResponsesResponse(response);
    expect(wire).toEqual({
      id: "resp_1",
      object: "response",
      created: 1_765_000_000,
      model: "txtA-5.2-pro",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_a",
                type: "function",
                function: { name: "get_weather", arguments: '{"city":"Paris"}' },
              },
              { id: "call_b", type: "function", function: { name: "get_time", arguments: "{}" } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 },
    });
    const args = wire.choices[0]?.message.tool_calls?.map((call) =>
      JSON.parse(call.function.arguments),
    );
    expect(args).toEqual([{ city: "Paris" }, {}]);
    expect(parseInterlinguaResponsesResponse(wire).message.parts).toEqual([
      { type: "tool-call", id: "call_a", name: "get_weather", arguments: '{"city":"Paris"}' },
      { type: "tool-call", id: "call_b", name: "get_time", arguments: "{}" },
    ]);
  });

  it("finish reasons table", () => {
    // result value -> unified, and back
    const table: [string, UnifiedFinishReason][] = [
      ["stop", "stop"],
      ["length", "length"],
      ["content_filter", "content-filter"],
      ["tool_calls", "tool-calls"],
    ];
    for (const [raw, unified] of table) {
      expect(parseInterlinguaResponsesFinishReason(raw)).toEqual({ unified, raw });
      expect(renderInterlinguaResponsesFinishReason({ unified })).toBe(raw);
    }
    expect(parseInterlinguaResponsesFinishReason("end_turn")).toEqual({
      unified: "other",
      raw: "end_turn",
    });
    expect(parseInterlinguaResponsesFinishReason(null)).toEqual({ unified: "other" });
    expect(renderInterlinguaResponsesFinishReason({ unified: "error" })).toBe("stop");
    expect(renderInterlinguaResponsesFinishReason({ unified: "other" })).toBe("stop");
    // the raw value wins when it is one of the result's own
    expect(renderInterlinguaResponsesFinishReason({ unified: "other", raw: "length" })).toBe(
      "length",
    );
    expect(renderInterlinguaResponsesFinishReason({ unified: "length", raw: "max_tokens" })).toBe(
      "length",
    );

    // Responses status (streams and real objects) -> unified
    expect(parseResponsesFinishReason("completed", undefined, false)).toEqual({
      unified: "stop",
      raw: "completed",
    });
    expect(parseResponsesFinishReason("completed", undefined, true)).toEqual({
      unified: "tool-calls",
      raw: "completed",
    });
    expect(parseResponsesFinishReason("incomplete", "max_output_tokens", false)).toEqual({
      unified: "length",
      raw: "max_output_tokens",
    });
    expect(parseResponsesFinishReason("incomplete", "content_filter", true)).toEqual({
      unified: "content-filter",
      raw: "content_filter",
    });
    expect(parseResponsesFinishReason("incomplete", undefined, false)).toEqual({
      unified: "other",
      raw: "incomplete",
    });
    expect(parseResponsesFinishReason("failed", undefined, false)).toEqual({
      unified: "error",
      raw: "failed",
    });
    expect(parseResponsesFinishReason("cancelled", undefined, false)).toEqual({
      unified: "other",
      raw: "cancelled",
    });
    // unified -> terminal status of the stream
    expect(renderResponsesFinishReason({ unified: "stop" })).toEqual({ status: "completed" });
    expect(renderResponsesFinishReason({ unified: "tool-calls" })).toEqual({ status: "completed" });
    expect(renderResponsesFinishReason({ unified: "length" })).toEqual({
      status: "incomplete",
      incompleteReason: "max_output_tokens",
    });
    expect(renderResponsesFinishReason({ unified: "content-filter" })).toEqual({
      status: "incomplete",
      incompleteReason: "content_filter",
    });
    // error/other read "stop" in the result, so the stream ends completed too (agreement)
    expect(renderResponsesFinishReason({ unified: "other" })).toEqual({ status: "completed" });
    expect(renderResponsesFinishReason({ unified: "error" })).toEqual({ status: "completed" });
    expect(
      renderResponsesFinishReason({ unified: "error", raw: "MALFORMED_FUNCTION_CALL" }),
    ).toEqual({
      status: "completed",
    });
    // a Responses status of its own is kept
    expect(renderResponsesFinishReason({ unified: "other", raw: "incomplete" })).toEqual({
      status: "incomplete",
    });
    expect(renderResponsesFinishReason({ unified: "error", raw: "failed" })).toEqual({
      status: "failed",
    });
  });

  it("thinking has no place in the result: dropped with a warning, as are usage details", () => {
    const warnings: Warning[] = [];
    const wire = renderInterlinguaResponsesResponse(
      {
        ...base,
        usage: { ...base.usage, cachedInputTokens: 30, thinkingTokens: 8 },
        message: {
          role: "assistant",
          parts: [
            { type: "thinking", text: "Let me think.", signature: "sig" },
            { type: "redacted-thinking", data: "abc" },
            { type: "text", text: "Hello " },
            { type: "text", text: "world." },
          ],
        },
        finishReason: { unified: "stop", raw: "end_turn" },
        stopSequence: "###",
      },
      { onWarning: (w) => warnings.push(w) },
    );
    expect(wire.choices).toEqual([
      { index: 0, message: { role: "assistant", content: "Hello world." }, finish_reason: "stop" },
    ]);
    expect(wire.usage).toEqual({ prompt_tokens: 40, completion_tokens: 12, total_tokens: 52 });
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([
      ["dropped", "parts.thinking"],
      ["dropped", "parts.redacted-thinking"],
      ["mapped", "parts.text"],
      ["dropped", "choices.stopSequence"],
      ["dropped", "usage.cachedInputTokens"],
      ["dropped", "usage.thinkingTokens"],
    ]);
  });

  it("parses a real Responses object: reasoning with encrypted content, text and usage", () => {
    const wire = fixture("openai-reasoning-encrypted-content.1.json") as {
      output: [{ encrypted_content: string; summary: [{ text: string }] }];
    };
    const encrypted = wire.output[0].encrypted_content;
    expect(parseInterlinguaResponsesResponse(wire)).toEqual({
      id: "resp_0f35ed53160b395301693cc957829881909359e7f80cdd20b5",
      model: "gpt-5-mini-2025-08-07",
      created: 1765591383,
      message: {
        role: "assistant",
        parts: [
          { type: "thinking", text: wire.output[0].summary[0].text, signature: encrypted },
          {
            type: "text",
            text: "12 + 7 = 19\n19 × 3 = 57\n57 × 10 = 570\n\nFinal result: 570",
          },
        ],
      },
      finishReason: { unified: "stop", raw: "completed" },
      usage: {
        inputTokens: 865,
        outputTokens: 163,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 128,
      },
    } satisfies Response);
    expect(encrypted.length).toBe(1572);
  });

  it("parses a real Responses object; OpenAI's parallel-call wrapper becomes its calls", () => {
    expect(parseInterlinguaResponsesResponse(fixture("parallel-tool-call-wrapper.1.json"))).toEqual(
      {
        id: "resp_parallel",
        model: "gpt-5.4",
        created: 1787162400,
        message: {
          role: "assistant",
          parts: [
            {
              type: "tool-call",
              id: "call_parallel_0",
              name: "weather",
              arguments: '{"location":"San Francisco"}',
            },
            {
              type: "tool-call",
              id: "call_parallel_1",
              name: "cityAttractions",
              arguments: '{"city":"Rome"}',
            },
          ],
        },
        finishReason: { unified: "tool-calls", raw: "completed" },
        usage: {
          inputTokens: 34,
          outputTokens: 28,
          cachedInputTokens: 0,
          cacheWriteTokens: 0,
          thinkingTokens: 0,
        },
      } satisfies Response,
    );
  });

  it("an error body is thrown as the error it stands for", () => {
    let thrown: unknown;
    try {
      parseInterlinguaResponsesResponse(fixture("openai-error.1.json"));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(GatewayError);
    const error = thrown as GatewayError;
    // insufficient_quota is the gateway's upstream account, not the client's: a 502.
    expect([error.status, error.type]).toEqual([502, "bad_gateway"]);
    expect(error.message).toContain("You exceeded your current quota");
  });

  it("rejects a malformed result as an upstream fault (502) naming the field", () => {
    const cases: [unknown, string][] = [
      [
        {
          id: "r",
          object: "response",
          created: 1,
          model: "m",
          choices: [{ index: 0, message: { role: "user", content: "x" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        },
        "choices[0].message.role",
      ],
      [
        {
          id: "r",
          object: "response",
          created: 1,
          model: "m",
          choices: [],
          usage: { prompt_tokens: -1, completion_tokens: 1, total_tokens: 2 },
        },
        "usage.prompt_tokens",
      ],
      [
        {
          id: "r",
          object: "response",
          created_at: 1,
          model: "m",
          output: [{ type: "function_call", call_id: "c" }],
        },
        "output[0].name",
      ],
    ];
    for (const [wire, param] of cases) {
      expect(() => parseInterlinguaResponsesResponse(wire)).toThrow(GatewayError);
      try {
        parseInterlinguaResponsesResponse(wire);
      } catch (error) {
        // Issue 26, item 10: the upstream's fault, not the client's.
        expect((error as GatewayError).status).toBe(502);
        expect((error as GatewayError).message).toContain(`${param}:`);
      }
    }
    for (const wire of [null, "x", [], 3])
      expect(() => parseInterlinguaResponsesResponse(wire)).toThrow(GatewayError);
  });
});
