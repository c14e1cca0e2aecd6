import { type FinishReason, type Response, responseToEvents } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { decodeAll, encodeAll, fixtureMessages } from "../test/helpers.js";
import { parseMessagesFinishReason } from "./map-messages-finish-reason.js";
import { renderStopDetails, withStopDetails } from "./messages-stop-details.js";
import { renderMessagesResponse } from "./render-messages-response.js";

const response = (finishReason: FinishReason): Response => ({
  id: "r1",
  model: "m",
  created: 1,
  message: { role: "assistant", parts: [] },
  finishReason,
  usage: {
    inputTokens: 1,
    outputTokens: 0,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
});

/** [stop_reason, stop_details] of the result and of the stream's message_delta. */
function shown(finishReason: FinishReason): [unknown, unknown] {
  const whole = renderMessagesResponse(response(finishReason));
  const frames = encodeAll(responseToEvents(response(finishReason))).map(
    (m) => JSON.parse(m.data) as { type: string; delta?: Record<string, unknown> },
  );
  const delta = frames.find((f) => f.type === "message_delta")?.delta ?? {};
  expect([delta["stop_reason"], delta["stop_details"] ?? null]).toEqual([
    whole.stop_reason,
    whole.stop_details,
  ]);
  return [whole.stop_reason, whole.stop_details];
}

describe("a refusal's stop_details, streamed and not", () => {
  it("a Gemini blocked prompt names its block reason in the explanation", () => {
    expect(shown({ unified: "content-filter", raw: "PROHIBITED_CONTENT" })).toEqual([
      "refusal",
      { type: "refusal", category: null, explanation: "blocked upstream: PROHIBITED_CONTENT" },
    ]);
  });

  it("an OpenAI content_filter and a Gemini finishMessage are kept", () => {
    expect(shown({ unified: "content-filter", raw: "content_filter" })[1]).toEqual({
      type: "refusal",
      category: null,
      explanation: "blocked upstream: content_filter",
    });
    expect(
      shown({ unified: "content-filter", raw: "SAFETY", explanation: "Unsafe prompt." })[1],
    ).toEqual({ type: "refusal", category: null, explanation: "Unsafe prompt." });
  });

  it("an Anthropic refusal without details stays null; ordinary stops have none", () => {
    expect(shown({ unified: "content-filter", raw: "refusal" })).toEqual(["refusal", null]);
    expect(shown({ unified: "stop", raw: "STOP" })).toEqual(["end_turn", null]);
    expect(renderStopDetails({ unified: "length", raw: "max_tokens" })).toBeNull();
  });

  it("an Anthropic refusal's category and explanation survive a stream round trip", () => {
    const events = decodeAll(fixtureMessages("anthropic-refusal.chunks.txt"));
    const delta = encodeAll(events)
      .map((m) => JSON.parse(m.data) as { type: string; delta?: Record<string, unknown> })
      .find((f) => f.type === "message_delta")?.delta;
    expect(delta?.["stop_reason"]).toBe("refusal");
    expect(delta?.["stop_details"]).toEqual({
      type: "refusal",
      category: "cyber",
      explanation:
        "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
    });
  });

  it("reads only refusal details onto the finish reason", () => {
    const refusal = parseMessagesFinishReason("refusal");
    expect(
      withStopDetails(refusal, { type: "refusal", category: "bio", explanation: null }),
    ).toEqual({ unified: "content-filter", raw: "refusal", category: "bio" });
    expect(withStopDetails(refusal, { type: "other", explanation: "x" })).toEqual(refusal);
    expect(withStopDetails(refusal, null)).toEqual(refusal);
  });
});
