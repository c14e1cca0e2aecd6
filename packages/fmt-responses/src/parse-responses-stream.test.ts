import { readFileSync } from "node:fs";
import {
  accumulateStream,
  outputsOf,
  type Response,
  type SseMessage,
  type StreamEvent,
  streamEventSchema,
} from "@interlingua/core-types";
import { describe, expect, it } from "vitest";
import { decodeResponsesEvents, decodeResponsesStream } from "./parse-responses-stream.js";

type Json = Record<string, unknown> & { type: string };

const lines = (name: string): string[] =>
  readFileSync(new URL(`../../../fixtures/openai-responses/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");

/** OpenAI frames: `data: <line>`, then `data: [DONE]` (fixtures/README.md). */
const asMessages = (payloads: readonly string[]): SseMessage[] => [
  ...payloads.map((data) => ({ data })),
  { data: "[DONE]" },
];

const decode = (payloads: readonly string[]): StreamEvent[] => {
  const events = decodeResponsesEvents(asMessages(payloads));
  for (const event of events) expect(streamEventSchema.safeParse(event).success).toBe(true);
  return events;
};

const usage = (input: number, output: number, thinking = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: thinking,
});

const malformed = {
  status: 502,
  type: "bad_gateway",
  message: "Upstream sent a malformed Responses stream event",
};

const parallelArguments =
  '{"tool_uses":[{"recipient_name":"functions.weather","parameters":{"location":"San Francisco"}},{"recipient_name":"functions.cityAttractions","parameters":{"city":"Rome"}}]}';

describe("decoding real OpenAI Responses streams", () => {
  it("argument deltas are keyed by output item, with parallel calls (parallel-tool-call-wrapper fixture)", () => {
    // The recording is exact: its response.created and response.completed frames are truncated
    // JSON (one closing brace short). Each becomes an error event; the frames between still
    // decode. The one function call is OpenAI's parallel wrapper, expanded into its two calls.
    const events = decode(lines("parallel-tool-call-wrapper.1.chunks.txt"));
    expect(events).toEqual([
      { type: "error", error: malformed },
      { type: "tool-call-start", index: 0, id: "call_parallel_0", name: "weather" },
      { type: "tool-arguments-delta", index: 0, delta: '{"location":"San Francisco"}' },
      { type: "part-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "call_parallel_1", name: "cityAttractions" },
      { type: "tool-arguments-delta", index: 1, delta: '{"city":"Rome"}' },
      { type: "part-end", index: 1 },
      { type: "error", error: malformed },
    ] satisfies StreamEvent[]);

    // Two real calls in the recording's event shapes, their events interleaved: every delta
    // lands on the part of its own output item, addressed by output_index or only by item_id.
    const call = (n: number, name: string) => ({ id: `fc_${n}`, call_id: `call_${n}`, name });
    const at = (n: number) => ({ item_id: `fc_${n}`, output_index: n });
    const payloads = [
      {
        type: "response.created",
        response: {
          id: "resp_p",
          model: "gpt-5.4",
          created_at: 1787162400,
          status: "in_progress",
          output: [],
        },
      },
      {
        type: "response.output_item.added",
        output_index: 0,
        item: {
          type: "function_call",
          ...call(0, "weather"),
          arguments: "",
          status: "in_progress",
        },
      },
      {
        type: "response.output_item.added",
        output_index: 1,
        item: {
          type: "function_call",
          ...call(1, "cityAttractions"),
          arguments: "",
          status: "in_progress",
        },
      },
      { type: "response.function_call_arguments.delta", ...at(0), delta: '{"location":' },
      { type: "response.function_call_arguments.delta", item_id: "fc_1", delta: '{"city":' },
      { type: "response.function_call_arguments.delta", ...at(1), delta: '"Rome"}' },
      {
        type: "response.function_call_arguments.delta",
        item_id: "fc_0",
        delta: '"San Francisco"}',
      },
      { type: "response.function_call_arguments.done", ...at(1), arguments: '{"city":"Rome"}' },
      {
        type: "response.function_call_arguments.done",
        ...at(0),
        arguments: '{"location":"San Francisco"}',
      },
      {
        type: "response.output_item.done",
        output_index: 1,
        item: {
          type: "function_call",
          ...call(1, "cityAttractions"),
          arguments: '{"city":"Rome"}',
          status: "completed",
        },
      },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          type: "function_call",
          ...call(0, "weather"),
          arguments: '{"location":"San Francisco"}',
          status: "completed",
        },
      },
      {
        type: "response.completed",
        response: {
          id: "resp_p",
          status: "completed",
          output: [],
          usage: {
            input_tokens: 34,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens: 28,
            output_tokens_details: { reasoning_tokens: 0 },
            total_tokens: 62,
          },
        },
      },
    ].map((p) => JSON.stringify(p));
    const result = accumulateStream(decode(payloads));
    expect(outputsOf(result)).toEqual([
      {
        index: 0,
        message: {
          role: "assistant",
          parts: [
            {
              type: "tool-call",
              id: "call_0",
              name: "weather",
              arguments: '{"location":"San Francisco"}',
            },
            {
              type: "tool-call",
              id: "call_1",
              name: "cityAttractions",
              arguments: '{"city":"Rome"}',
            },
          ],
        },
        finishReason: { unified: "tool-calls", raw: "completed" },
      },
    ]);
    expect(result.usage).toEqual(usage(34, 28));
  });

  it("arguments that arrive only in the .done event are emitted exactly once", () => {
    const recorded = lines("parallel-tool-call-wrapper.1.chunks.txt");
    const withoutDeltas = recorded.filter(
      (l) => !l.includes('"response.function_call_arguments.delta"'),
    );
    const onlyInItemDone = withoutDeltas.filter(
      (l) => !l.includes('"response.function_call_arguments.done"'),
    );
    for (const payloads of [withoutDeltas, onlyInItemDone]) {
      const events = decode(payloads);
      expect(events.filter((e) => e.type === "tool-arguments-delta")).toEqual([
        { type: "tool-arguments-delta", index: 0, delta: '{"location":"San Francisco"}' },
        { type: "tool-arguments-delta", index: 1, delta: '{"city":"Rome"}' },
      ]);
    }
    // A plain call whose arguments come only in function_call_arguments.done, then repeated in
    // output_item.done: one delta.
    const plain = withoutDeltas.map((l) => l.replaceAll('"name":"parallel"', '"name":"lookup"'));
    const events = decode(plain);
    expect(events.filter((e) => e.type === "tool-arguments-delta")).toEqual([
      { type: "tool-arguments-delta", index: 0, delta: parallelArguments },
    ]);
    expect(accumulateStream(events).message.parts).toEqual([
      { type: "tool-call", id: "call_parallel", name: "lookup", arguments: parallelArguments },
    ]);
    // No arguments anywhere: the canonical "{}".
    const empty = plain
      .filter((l) => !l.includes('"response.function_call_arguments.done"'))
      .map((l) => l.replace(/"arguments":"(?:[^"\\]|\\.)*"/, '"arguments":""'));
    expect(decode(empty).filter((e) => e.type === "tool-arguments-delta")).toEqual([
      { type: "tool-arguments-delta", index: 0, delta: "{}" },
    ]);
  });

  it("the error fixture becomes one canonical error event with a sensible status", () => {
    const events = decode(lines("openai-error.1.chunks.txt"));
    expect(events).toEqual([
      {
        type: "response-start",
        id: "resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424",
        model: "gpt-5-nano-2025-08-07",
        created: 1763474589,
      },
      {
        type: "error",
        error: {
          // insufficient_quota is the gateway's upstream account running dry: the client sees a
          // bad gateway, not a statement about its own balance (errors package rules).
          status: 502,
          type: "bad_gateway",
          message:
            "Upstream provider error (402): You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        },
      },
    ] satisfies StreamEvent[]);
    // response.failed alone (no error event before it) still yields the error, once.
    const failedOnly = lines("openai-error.1.chunks.txt").filter(
      (l) => !l.startsWith('{"type":"error"'),
    );
    expect(decode(failedOnly).filter((e) => e.type === "error")).toHaveLength(1);
  });

  it("the encrypted reasoning fixture: summaries as thinking, encrypted_content byte for byte", () => {
    const recorded = lines("openai-reasoning-encrypted-content.1.chunks.txt");
    const payloads = recorded.map((l) => JSON.parse(l) as Json);
    // Four responses of one agent loop, recorded back to back: split at each response.created.
    const starts = payloads.flatMap((p, i) => (p.type === "response.created" ? [i] : []));
    expect(starts).toEqual([0, 56, 75, 94]);
    const segments = starts.map((start, k) => recorded.slice(start, starts[k + 1]));
    const results = segments.map((segment) => accumulateStream(decode(segment)));

    const reasoningDone = payloads[38] as unknown as { item: { encrypted_content: string } };
    const encrypted = reasoningDone.item.encrypted_content;
    // The finished item's encrypted_content, not the different one of output_item.added.
    expect(encrypted).not.toBe(
      (payloads[2] as unknown as { item: { encrypted_content: string } }).item.encrypted_content,
    );
    expect([encrypted.length, encrypted.slice(0, 20), encrypted.slice(-20)]).toEqual([
      1060,
      "gAAAAABpPDIVOKrsHNZ0",
      "_8XMnObfNxat0wz4uQ==",
    ]);

    const call = (id: string, args: string) => ({
      type: "tool-call" as const,
      id,
      name: "calculator",
      arguments: args,
    });
    const toolCalls = { unified: "tool-calls" as const, raw: "completed" };
    expect(results).toEqual([
      {
        id: "resp_01830d662ab3856501693c321345c88190b0de00f3b9975691",
        model: "gpt-5.1-codex-max",
        created: 1765552659,
        message: {
          role: "assistant",
          parts: [
            {
              type: "thinking",
              text: "**Calculating step-by-step using calculator**\n\nI'll compute 12 plus 7, then multiply the result by 3, and finally multiply that by 10, reporting the final product.",
              signature: encrypted,
            },
            call("call_AB6AaRZ1FYZB2RwS6A5vbdqn", '{"a":12,"b":7,"op":"add"}'),
          ],
        },
        finishReason: toolCalls,
        usage: usage(134, 28),
      },
      {
        id: "resp_01830d662ab3856501693c3215903881909b710d150ff65014",
        model: "gpt-5.1-codex-max",
        created: 1765552661,
        message: {
          role: "assistant",
          parts: [call("call_Q6pW65MUgW9vF59BmItYGos3", '{"a":19,"b":3,"op":"multiply"}')],
        },
        finishReason: toolCalls,
        usage: usage(221, 26),
      },
      {
        id: "resp_01830d662ab3856501693c3216bef88190bf0e034cff24137b",
        model: "gpt-5.1-codex-max",
        created: 1765552662,
        message: {
          role: "assistant",
          parts: [call("call_Zl5vIMnD7dVAjgU6FkhmiCZh", '{"a":57,"b":10,"op":"multiply"}')],
        },
        finishReason: toolCalls,
        usage: usage(260, 26),
      },
      {
        id: "resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a",
        model: "gpt-5.1-codex-max",
        created: 1765552663,
        message: {
          role: "assistant",
          parts: [{ type: "text", text: "The final result is **570**." }],
        },
        finishReason: { unified: "stop", raw: "completed" },
        usage: usage(299, 12),
      },
    ] satisfies Response[]);

    // The whole recording as one stream also decodes: later responses continue the part numbering.
    const whole = accumulateStream(decode(recorded));
    expect(whole.message.parts.map((p) => p.type)).toEqual([
      "thinking",
      "tool-call",
      "tool-call",
      "tool-call",
      "text",
    ]);
    expect(whole.usage).toEqual(usage(299, 12));
  });

  it("summaries in several parts read as one thinking text, paragraph-separated", () => {
    const at = { item_id: "rs_1", output_index: 0 };
    const payloads = [
      { type: "response.created", response: { id: "resp_x", model: "m", created_at: 1 } },
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { id: "rs_1", type: "reasoning", summary: [] },
      },
      { type: "response.reasoning_summary_text.delta", ...at, summary_index: 0, delta: "First." },
      { type: "response.reasoning_summary_text.done", ...at, summary_index: 0, text: "First." },
      // the second summary arrives only whole
      {
        type: "response.reasoning_summary_part.done",
        ...at,
        summary_index: 1,
        part: { type: "summary_text", text: "Second." },
      },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: {
          id: "rs_1",
          type: "reasoning",
          summary: [
            { type: "summary_text", text: "First." },
            { type: "summary_text", text: "Second." },
          ],
        },
      },
      {
        type: "response.incomplete",
        response: {
          status: "incomplete",
          incomplete_details: { reason: "max_output_tokens" },
          usage: null,
        },
      },
    ].map((p) => JSON.stringify(p));
    const result = accumulateStream(decode(payloads));
    expect(outputsOf(result)).toEqual([
      {
        index: 0,
        message: { role: "assistant", parts: [{ type: "thinking", text: "First.\n\nSecond." }] },
        finishReason: { unified: "length", raw: "max_output_tokens" },
      },
    ]);
  });

  it("decodes through the TransformStream, and survives malformed input", async () => {
    const recorded = lines("openai-reasoning-encrypted-content.1.chunks.txt").slice(94);
    const messages: SseMessage[] = [
      ...asMessages(recorded),
      { data: "{not json" },
      { data: "[1,2]" },
      { event: "response.output_text.delta", data: "" },
    ];
    const out: StreamEvent[] = [];
    const stream = new ReadableStream<SseMessage>({
      start(controller) {
        for (const message of messages) controller.enqueue(message);
        controller.close();
      },
    }).pipeThrough(decodeResponsesStream());
    for await (const event of stream) out.push(event);
    expect(out).toEqual([
      {
        type: "response-start",
        id: "resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a",
        model: "gpt-5.1-codex-max",
        created: 1765552663,
      },
      { type: "part-start", index: 0, kind: "text" },
      ...["The", " final", " result", " is", " **", "570", "**", "."].map((delta) => ({
        type: "text-delta" as const,
        index: 0,
        delta,
      })),
      { type: "part-end", index: 0 },
      { type: "finish", finishReason: { unified: "stop", raw: "completed" } },
      { type: "usage", usage: usage(299, 12) },
      { type: "error", error: malformed },
      { type: "error", error: malformed },
    ] satisfies StreamEvent[]);
  });
});
