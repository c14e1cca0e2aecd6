import { responseToEvents, type StreamEvent } from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import {
  nativeFinishReasonTable,
  parseNativeFinishReason,
  renderNativeFinishReason,
} from "./map-native-finish-reason.js";
import { native } from "./native-codec.js";
import { parseNativeResponse } from "./parse-native-response.js";
import { renderNativeResponse } from "./render-native-response.js";

describe("STOP with function calls -> tool-calls", () => {
  const response = {
    candidates: [
      {
        content: { role: "model", parts: [{ functionCall: { name: "f", args: { a: 1 } } }] },
        finishReason: "STOP",
        index: 0,
      },
    ],
    responseId: "r",
  };

  it("reads STOP on a candidate with calls as tool-calls, keeping the raw STOP", () => {
    expect(parseNativeResponse(response).finishReason).toEqual({
      unified: "tool-calls",
      raw: "STOP",
    });
  });

  it("renders it back as STOP, and tool-calls from other formats as STOP too", () => {
    const parsed = parseNativeResponse(response);
    expect(renderNativeResponse(parsed).candidates?.[0]?.finishReason).toBe("STOP");
    expect(renderNativeFinishReason({ unified: "tool-calls", raw: "tool_calls" })).toBe("STOP");
  });

  it("STOP without calls stays stop", () => {
    expect(parseNativeFinishReason("STOP", false)).toEqual({ unified: "stop", raw: "STOP" });
  });
});

describe("finish reason table", () => {
  it.each(Object.entries(nativeFinishReasonTable))(
    "%s -> %s, rendered back as itself",
    (raw, unified) => {
      expect(parseNativeFinishReason(raw, false)).toEqual({ unified, raw });
      expect(renderNativeFinishReason({ unified, raw })).toBe(raw);
    },
  );

  it("keeps an unknown upstream value, maps it to other, and renders it back", () => {
    expect(parseNativeFinishReason("NEW_REASON", false)).toEqual({
      unified: "other",
      raw: "NEW_REASON",
    });
    expect(renderNativeFinishReason({ unified: "other", raw: "NEW_REASON" })).toBe("NEW_REASON");
  });

  it.each([
    ["stop", "end_turn", "STOP"],
    ["length", "max_tokens", "MAX_TOKENS"],
    ["content-filter", "content_filter", "SAFETY"],
    ["error", undefined, "OTHER"],
    ["other", undefined, "OTHER"],
  ] as const)("renders %s (raw %s from another format) as %s", (unified, raw, expected) => {
    expect(renderNativeFinishReason(raw === undefined ? { unified } : { unified, raw })).toBe(
      expected,
    );
  });
});

describe("finishMessage is the finish reason's explanation, streamed and not", () => {
  const wire = {
    candidates: [
      {
        content: { role: "model", parts: [{ text: "" }] },
        finishReason: "SAFETY",
        finishMessage: "Blocked for safety.",
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 0, totalTokenCount: 1 },
    responseId: "r1",
    modelVersion: "m",
  };

  it("parses into explanation and renders back, whole and streamed", () => {
    const parsed = parseNativeResponse(wire);
    expect(parsed.finishReason).toEqual({
      unified: "content-filter",
      raw: "SAFETY",
      explanation: "Blocked for safety.",
    });
    expect(renderNativeResponse(parsed).candidates?.[0]?.finishMessage).toBe("Blocked for safety.");
    const frames: { data: string }[] = [];
    const encoder = native.stream.encoder();
    for (const event of responseToEvents(parsed)) encoder.push(event, (m) => frames.push(m));
    encoder.end((m) => frames.push(m));
    const decoder = native.stream.decoder();
    const events: StreamEvent[] = [];
    for (const frame of frames) decoder.push({ data: frame.data }, (e) => events.push(e));
    decoder.end((e) => events.push(e));
    expect(events.find((e) => e.type === "finish")).toMatchObject({
      finishReason: { raw: "SAFETY", explanation: "Blocked for safety." },
    });
  });

  it("an Anthropic refusal's explanation reaches a native client", () => {
    const body = renderNativeResponse({
      id: "r1",
      model: "m",
      created: 1,
      message: { role: "assistant", parts: [] },
      finishReason: { unified: "content-filter", raw: "refusal", explanation: "No." },
      usage: {
        inputTokens: 1,
        outputTokens: 0,
        cachedInputTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
      },
    });
    expect(body.candidates?.[0]).toMatchObject({ finishReason: "SAFETY", finishMessage: "No." });
  });
});
