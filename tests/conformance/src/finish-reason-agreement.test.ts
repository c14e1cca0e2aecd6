import {
  type Codec,
  type Response,
  responseToEvents,
  type SseMessage,
  type StreamEvent,
} from "@interlingua/core-types";
import { chat, parseChatFinishReason } from "@interlingua/fmt-chat";
import { mapMessagesStopReason, messages } from "@interlingua/fmt-messages";
import { mapNativeFinishReason, parseNativeResponse } from "@interlingua/fmt-native";
import { responses } from "@interlingua/fmt-responses";
import { describe, expect, it } from "vitest";

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
  "anthropic end_turn": () => withReason(mapMessagesStopReason("end_turn")),
  "anthropic max_tokens": () => withReason(mapMessagesStopReason("max_tokens")),
  "anthropic refusal": () => withReason(mapMessagesStopReason("refusal")),
  "anthropic pause_turn": () => withReason(mapMessagesStopReason("pause_turn")),
  "gemini STOP": () => withReason(mapNativeFinishReason("STOP", false)),
  "gemini SAFETY": () => withReason(mapNativeFinishReason("SAFETY", false)),
  "gemini RECITATION": () => withReason(mapNativeFinishReason("RECITATION", false)),
  "gemini MALFORMED_FUNCTION_CALL": () =>
    withReason(mapNativeFinishReason("MALFORMED_FUNCTION_CALL", false)),
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

function withReason(finishReason: Response["choices"][number]["finishReason"]): Response {
  return {
    id: "r1",
    model: "m",
    created: 1_700_000_000,
    choices: [
      {
        index: 0,
        message: { role: "assistant", parts: [{ type: "text", text: "x" }] },
        finishReason,
      },
    ],
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
    codec: responses,
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
  "gemini MALFORMED_FUNCTION_CALL": ["stop", "stop", null],
  "gemini blocked prompt": ["content_filter", "content_filter", "refusal"],
  "openai content_filter": ["content_filter", "content_filter", "refusal"],
  "openai length": ["length", "length", "max_tokens"],
};

function encode(codec: Codec, events: StreamEvent[]): Json[] {
  const encoder = codec.stream.encoder({ includeUsage: true });
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
