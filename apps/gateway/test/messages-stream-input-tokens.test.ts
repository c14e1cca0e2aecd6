import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { SCRIPTED_MODEL, sse, useScriptedStack } from "./scripted-upstream.ts";
import { KEY } from "./stack.ts";
import type { Json } from "./wire.ts";

// A messages client on an OpenAI-family model, streamed: the upstream reports its usage only at
// the end (a chat stream's include_usage chunk, a Responses stream's response.completed), after
// message_start left. Anthropic's MessageDeltaUsage carries the cumulative input_tokens (and
// cache counts): the final message_delta has the real ones, which Anthropic's SDKs merge into
// the message (and current LangChain reads from message_delta).

const scripted = useScriptedStack();

const chatChunk = (choices: Json[], extra: Json = {}) => ({
  id: "c1",
  object: "chat.completion.chunk",
  created: 1,
  model: "gpt-5",
  choices,
  ...extra,
});
const chatStream = () =>
  sse([
    chatChunk([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]),
    chatChunk([{ index: 0, delta: { content: "Hello" }, finish_reason: null }]),
    chatChunk([{ index: 0, delta: {}, finish_reason: "stop" }]),
    chatChunk([], {
      usage: {
        prompt_tokens: 42,
        prompt_tokens_details: { cached_tokens: 10 },
        completion_tokens: 2,
        total_tokens: 44,
      },
    }),
    "[DONE]",
  ]);

const message = { type: "message", id: "msg_1", role: "assistant" };
const text = { type: "output_text", text: "Hello", annotations: [] };
const response = {
  id: "resp_1",
  object: "response",
  created_at: 1,
  model: "gpt-5.2-pro",
  status: "in_progress",
  output: [],
};
const at = { item_id: "msg_1", output_index: 0, content_index: 0 };
const responsesStream = () =>
  sse(
    [
      { type: "response.created", response },
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { ...message, status: "in_progress", content: [] },
      },
      { type: "response.content_part.added", ...at, part: { ...text, text: "" } },
      { type: "response.output_text.delta", ...at, delta: "Hello", logprobs: [] },
      { type: "response.output_text.done", ...at, text: "Hello", logprobs: [] },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { ...message, status: "completed", content: [text] },
      },
      {
        type: "response.completed",
        response: {
          ...response,
          status: "completed",
          output: [{ ...message, status: "completed", content: [text] }],
          usage: {
            input_tokens: 42,
            input_tokens_details: { cached_tokens: 10 },
            output_tokens: 2,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 44,
          },
        },
      },
    ].map((frame, i) => ({ ...frame, sequence_number: i })),
    true,
  );

describe("a messages stream from an upstream that reports usage at the end", () => {
  const client = () =>
    new Anthropic({ apiKey: KEY, baseURL: scripted.stack.gateway.url, maxRetries: 0 });

  for (const [family, body] of [
    ["openai", chatStream],
    ["openai-responses", responsesStream],
  ] as const) {
    it(`${family}: the final message_delta carries the real input and cache counts`, async () => {
      scripted.upstream.script(() => ({ body: body() }));
      const events: Json[] = [];
      const stream = client().messages.stream({
        model: SCRIPTED_MODEL[family],
        max_tokens: 64,
        messages: [{ role: "user", content: "hi" }],
      });
      stream.on("streamEvent", (event) => events.push(event as unknown as Json));
      const final = await stream.finalMessage();
      const delta = events.find((e) => e.type === "message_delta")!;
      // Anthropic's input_tokens leaves out cache reads: 42 prompt tokens, 10 of them cached.
      expect(delta.usage).toEqual({
        input_tokens: 32,
        output_tokens: 2,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 10,
      });
      // The SDK merges message_delta's counts into the message it hands the caller.
      expect(final.usage).toMatchObject({
        input_tokens: 32,
        output_tokens: 2,
        cache_read_input_tokens: 10,
      });
      expect(final.content).toEqual([{ type: "text", text: "Hello" }]);
    });
  }
});
