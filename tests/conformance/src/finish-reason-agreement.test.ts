import {
  type Codec,
  type Response,
  responseToEvents,
  type SseMessage,
  type StreamEvent,
} from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { parseChatFinishReason } from "@interlingua/fmt-chat/tables";
import { messages, parseMessagesResponse } from "@interlingua/fmt-messages";
import { parseMessagesFinishReason } from "@interlingua/fmt-messages/tables";
import { native, parseNativeResponse } from "@interlingua/fmt-native";
import { parseNativeFinishReason } from "@interlingua/fmt-native/tables";
import { interlinguaResponses } from "@interlingua/fmt-responses";
import { describe, expect, it } from "vitest";
import { withUsageChunk } from "./codecs.js";

// Every upstream stop, as each client format shows it: the explicit table, and the property
// that the streamed and the non-streamed answer of one format say the same thing.

type Json = Record<string, unknown>;
const usage = {
  inputTokens: 3,
  outputTokens: 2,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
};

/** The upstream's own reply, parsed by its own codec, for each stop the issue names and more. */
const UPSTREAM_STOPS: Record<string, () => Response> = {
  "anthropic end_turn": () => withReason(parseMessagesFinishReason("end_turn")),
  "anthropic max_tokens": () => withReason(parseMessagesFinishReason("max_tokens")),
  "anthropic refusal": () => withReason(parseMessagesFinishReason("refusal")),
  "anthropic pause_turn": () => withReason(parseMessagesFinishReason("pause_turn")),
  "gemini STOP": () => withReason(parseNativeFinishReason("STOP", false)),
  "gemini SAFETY": () => withReason(parseNativeFinishReason("SAFETY", false)),
  "gemini RECITATION": () => withReason(parseNativeFinishReason("RECITATION", false)),
  "gemini MALFORMED_FUNCTION_CALL": () =>
    withReason(parseNativeFinishReason("MALFORMED_FUNCTION_CALL", false)),
  "gemini blocked prompt": () =>
    parseNativeResponse({
      promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
      usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 },
      responseId: "r1",
      modelVersion: "m",
    }),
  "openai content_filter": () => withReason(parseChatFinishReason("content_filter")),
  "openai length": () => withReason(parseChatFinishReason("length")),
};

function withReason(finishReason: Response["finishReason"]): Response {
  return {
    id: "r1",
    model: "m",
    created: 1_700_000_000,
    message: { role: "assistant", parts: [{ type: "text", text: "x" }] },
    finishReason,
    usage,
  };
}

/** What a client of each format reads as the stop, from a body and from a stream. */
const READ: Record<
  "chat" | "responses" | "messages",
  { codec: Codec; body: (b: Json) => unknown; stream: (frames: Json[]) => unknown }
> = {
  chat: {
    codec: chat,
    body: (b) => (b.choices as Json[])[0]?.finish_reason,
    stream: (f) =>
      f.flatMap((c) => (c.choices as Json[] | undefined) ?? []).find((c) => c.finish_reason)
        ?.finish_reason,
  },
  responses: {
    codec: interlinguaResponses,
    body: (b) => (b.choices as Json[])[0]?.finish_reason,
    // The terminal event read in the result's vocabulary.
    stream: (f) => {
      const end = f.find((e) => String(e.type).match(/^response\.(completed|incomplete|failed)$/));
      const response = end?.response as Json | undefined;
      const reason = (response?.incomplete_details as Json | null | undefined)?.reason;
      if (end?.type === "response.completed") return "stop";
      if (reason === "max_output_tokens") return "length";
      if (reason === "content_filter") return "content_filter";
      return end?.type;
    },
  },
  messages: {
    codec: messages,
    body: (b) => b.stop_reason,
    stream: (f) => (f.find((e) => e.type === "message_delta")?.delta as Json)?.stop_reason,
  },
};

/** The table: upstream stop -> [chat, responses, messages]. */
const TABLE: Record<string, [string, string, string | null]> = {
  "anthropic end_turn": ["stop", "stop", "end_turn"],
  "anthropic max_tokens": ["length", "length", "max_tokens"],
  "anthropic refusal": ["content_filter", "content_filter", "refusal"],
  "anthropic pause_turn": ["stop", "stop", "pause_turn"],
  "gemini STOP": ["stop", "stop", "end_turn"],
  "gemini SAFETY": ["content_filter", "content_filter", "refusal"],
  "gemini RECITATION": ["content_filter", "content_filter", "refusal"],
  // No stop_reason names it, and a finished message's is never null: the turn ended.
  "gemini MALFORMED_FUNCTION_CALL": ["stop", "stop", "end_turn"],
  "gemini blocked prompt": ["content_filter", "content_filter", "refusal"],
  "openai content_filter": ["content_filter", "content_filter", "refusal"],
  "openai length": ["length", "length", "max_tokens"],
};

function encode(codec: Codec, events: StreamEvent[]): Json[] {
  const encoder = codec.stream.encoder(withUsageChunk);
  const out: SseMessage[] = [];
  for (const event of events) encoder.push(event, (m) => out.push(m));
  encoder.end((m) => out.push(m));
  return out.filter((m) => m.data !== "[DONE]").map((m) => JSON.parse(m.data) as Json);
}

describe("finish reasons: one table per client format, stream and non-stream agree", () => {
  for (const [stop, make] of Object.entries(UPSTREAM_STOPS)) {
    it(stop, () => {
      const response = make();
      const seen = (["chat", "responses", "messages"] as const).map((format) => {
        const { codec, body, stream } = READ[format];
        const whole = body(codec.response.render(response) as Json);
        const streamed = stream(encode(codec, responseToEvents(response)));
        expect(streamed, `${format} streamed`).toEqual(whole);
        return whole;
      });
      expect(seen).toEqual(TABLE[stop]);
    });
  }

  it("a blocked prompt is never an empty success (a choice, not choices: [])", () => {
    const body = chat.response.render(UPSTREAM_STOPS["gemini blocked prompt"]!()) as Json;
    expect(body.choices).toHaveLength(1);
  });
});

/** Upstream blocks and refusals that say why, each parsed by its own codec. */
const SAYS_WHY: Record<string, () => Response> = {
  "anthropic refusal with stop_details": () =>
    parseMessagesResponse({
      id: "msg_1",
      model: "claude",
      content: [],
      stop_reason: "refusal",
      stop_details: { type: "refusal", category: "cyber", explanation: "Blocked by policy." },
      usage: { input_tokens: 3, output_tokens: 0 },
    }),
  "gemini blocked prompt": UPSTREAM_STOPS["gemini blocked prompt"]!,
  "gemini SAFETY with finishMessage": () =>
    parseNativeResponse({
      candidates: [
        {
          content: { role: "model", parts: [{ text: "" }] },
          finishReason: "SAFETY",
          finishMessage: "Unsafe content.",
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 3, totalTokenCount: 3 },
      responseId: "r1",
      modelVersion: "m",
    }),
  "gemini RECITATION": UPSTREAM_STOPS["gemini RECITATION"]!,
  "openai content_filter": UPSTREAM_STOPS["openai content_filter"]!,
};

/** Where each format with room shows the reason: [messages stop_details, native reason + message]. */
const WHY_TABLE: Record<string, [unknown, unknown]> = {
  "anthropic refusal with stop_details": [
    { type: "refusal", category: "cyber", explanation: "Blocked by policy." },
    { finishReason: "SAFETY", finishMessage: "Blocked by policy." },
  ],
  "gemini blocked prompt": [
    { type: "refusal", category: null, explanation: "blocked upstream: PROHIBITED_CONTENT" },
    { blockReason: "PROHIBITED_CONTENT" },
  ],
  "gemini SAFETY with finishMessage": [
    { type: "refusal", category: null, explanation: "Unsafe content." },
    { finishReason: "SAFETY", finishMessage: "Unsafe content." },
  ],
  "gemini RECITATION": [
    { type: "refusal", category: null, explanation: "blocked upstream: RECITATION" },
    { finishReason: "RECITATION" },
  ],
  "openai content_filter": [
    { type: "refusal", category: null, explanation: "blocked upstream: content_filter" },
    { finishReason: "SAFETY" },
  ],
};

/** A native body or stream's block reason, or its candidate's finishReason and finishMessage. */
function nativeWhy(frames: Json[]): Json {
  const blockReason = frames
    .map((f) => (f.promptFeedback as Json | undefined)?.blockReason)
    .find((r) => r !== undefined);
  if (blockReason !== undefined) return { blockReason };
  const candidate = frames
    .flatMap((f) => (f.candidates as Json[] | undefined) ?? [])
    .find((c) => c.finishReason !== undefined);
  const out: Json = { finishReason: candidate?.finishReason };
  if (candidate?.finishMessage !== undefined) out.finishMessage = candidate.finishMessage;
  return out;
}

describe("the block reason, kept where each format has room, stream and non-stream alike", () => {
  for (const [stop, make] of Object.entries(SAYS_WHY)) {
    it(stop, () => {
      const response = make();
      const wholeMessages = (messages.response.render(response) as unknown as Json).stop_details;
      const streamedMessages =
        (
          encode(messages, responseToEvents(response)).find((e) => e.type === "message_delta")
            ?.delta as Json | undefined
        )?.stop_details ?? null;
      expect(streamedMessages, "messages streamed").toEqual(wholeMessages);
      const wholeNative = nativeWhy([native.response.render(response) as Json]);
      const streamedNative = nativeWhy(encode(native, responseToEvents(response)));
      expect(streamedNative, "native streamed").toEqual(wholeNative);
      expect([wholeMessages, wholeNative]).toEqual(WHY_TABLE[stop]);
    });
  }

  it("chat and responses have no field for it: content_filter, and a dropped warning", () => {
    for (const codec of [chat, interlinguaResponses]) {
      for (const stop of ["anthropic refusal with stop_details", "gemini blocked prompt"]) {
        const response = SAYS_WHY[stop]!();
        const whole: string[] = [];
        const streamed: string[] = [];
        codec.response.render(response, { onWarning: (w) => whole.push(w.feature) });
        const encoder = codec.stream.encoder({
          ...withUsageChunk,
          onWarning: (w) => streamed.push(w.feature),
        });
        for (const event of responseToEvents(response)) encoder.push(event, () => {});
        encoder.end(() => {});
        for (const seen of [whole, streamed]) {
          expect(
            seen.some((f) => f.endsWith("finishReason.raw")),
            `${stop}`,
          ).toBe(true);
        }
      }
    }
  });

  it("same-family round trips are exact: an Anthropic refusal, a Gemini blocked prompt", () => {
    const refusal = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "claude",
      content: [],
      stop_reason: "refusal",
      stop_sequence: null,
      stop_details: { type: "refusal", category: "bio", explanation: "No." },
      usage: { input_tokens: 3, output_tokens: 0 },
    };
    const back = messages.response.render(parseMessagesResponse(refusal)) as unknown as Json;
    expect([back.stop_reason, back.stop_details]).toEqual(["refusal", refusal.stop_details]);
    const blocked = native.response.render(UPSTREAM_STOPS["gemini blocked prompt"]!()) as Json;
    expect(blocked.candidates).toBeUndefined();
    expect(blocked.promptFeedback).toEqual({ blockReason: "PROHIBITED_CONTENT" });
  });
});
