/**
 * Hand-written fast-check arbitraries of the messages WIRE format, as real clients and Anthropic
 * send it. Every generated value passes the package's zod schemas (a property test proves it), so
 * the cross-format conformance suite can reuse them. fast-check comes through core-types' testing
 * entry, so this entry adds no dependency of its own.
 */
import {
  text as anyText,
  base64,
  fc,
  identifier,
  jsonObject,
} from "@interlingua/core-types/testing";
import type {
  MessagesCacheControl,
  MessagesContentBlock,
  MessagesDocumentBlock,
  MessagesImageBlock,
  MessagesMessage,
  MessagesRequestWire,
  MessagesResponseWire,
  MessagesTextBlock,
  MessagesThinkingBlock,
  MessagesThinkingConfig,
  MessagesTool,
  MessagesToolChoice,
  MessagesToolResultBlock,
  MessagesToolUseBlock,
  MessagesUsageWire,
} from "./messages-api.js";
import { isKnownResponseBlock } from "./messages-api.js";
import type { MessagesStreamEventWire } from "./messages-stream-api.js";

export { fc };

/** Text Anthropic accepts in a text block: never empty or whitespace-only. */
export const wireText = (maxLength = 40): fc.Arbitrary<string> =>
  anyText(maxLength).map((t) => (t.trim() === "" ? `x${t}` : t));
const decimal01 = fc.integer({ min: 0, max: 100 }).map((n) => n / 100);
const tokenCount = fc.nat({ max: 200_000 });
const httpsUrl = fc.webUrl({ validSchemes: ["https"] });
const toolId = identifier.map((id) => `toolu_${id}`);
const signature = base64;

export const wireCacheControl: fc.Arbitrary<MessagesCacheControl> = fc.record(
  { type: fc.constant("ephemeral" as const), ttl: fc.constantFrom("5m" as const, "1h" as const) },
  { requiredKeys: ["type"] },
);

export const wireTextBlock: fc.Arbitrary<MessagesTextBlock> = fc.record(
  {
    type: fc.constant("text" as const),
    text: wireText(),
    cache_control: fc.option(wireCacheControl, { nil: null }),
    citations: fc.option(
      fc.array(
        fc.record({
          type: fc.constant("char_location"),
          cited_text: anyText(10),
          document_index: fc.nat(3),
        }),
        { maxLength: 2 },
      ),
      { nil: null },
    ),
  },
  { requiredKeys: ["type", "text"] },
);

export const wireImageBlock: fc.Arbitrary<MessagesImageBlock> = fc.record(
  {
    type: fc.constant("image" as const),
    source: fc.oneof(
      fc.record({ type: fc.constant("url" as const), url: httpsUrl }),
      fc.record({
        type: fc.constant("base64" as const),
        media_type: fc.constantFrom("image/jpeg", "image/png", "image/gif", "image/webp"),
        data: base64,
      }),
    ),
    cache_control: wireCacheControl,
  },
  { requiredKeys: ["type", "source"] },
);

export const wireDocumentBlock: fc.Arbitrary<MessagesDocumentBlock> = fc.record(
  {
    type: fc.constant("document" as const),
    source: fc.oneof(
      fc.record({
        type: fc.constant("base64" as const),
        media_type: fc.constant("application/pdf"),
        data: base64,
      }),
      fc.record({ type: fc.constant("url" as const), url: httpsUrl }),
      fc.record({
        type: fc.constant("text" as const),
        media_type: fc.constant("text/plain" as const),
        // Well-formed text only: lone surrogates cannot survive UTF-8.
        data: fc.string({ unit: "grapheme", maxLength: 40 }),
      }),
      fc.record({
        type: fc.constant("file" as const),
        file_id: identifier.map((id) => `file_${id}`),
      }),
    ),
    title: fc.option(anyText(20), { nil: null }),
    context: anyText(20),
    citations: fc.record({ enabled: fc.boolean() }),
    cache_control: wireCacheControl,
  },
  { requiredKeys: ["type", "source"] },
);

export const wireToolUseBlock: fc.Arbitrary<MessagesToolUseBlock> = fc.record(
  {
    type: fc.constant("tool_use" as const),
    id: toolId,
    name: identifier,
    input: jsonObject,
    cache_control: wireCacheControl,
  },
  { requiredKeys: ["type", "id", "name", "input"] },
);

export const wireToolResultBlock: fc.Arbitrary<MessagesToolResultBlock> = fc.record(
  {
    type: fc.constant("tool_result" as const),
    tool_use_id: toolId,
    content: fc.oneof(
      anyText(),
      fc.array(fc.oneof({ weight: 3, arbitrary: wireTextBlock }, wireImageBlock), { maxLength: 3 }),
    ),
    is_error: fc.boolean(),
    cache_control: wireCacheControl,
  },
  { requiredKeys: ["type", "tool_use_id"] },
);

export const wireThinkingBlock: fc.Arbitrary<MessagesThinkingBlock> = fc.record({
  type: fc.constant("thinking" as const),
  thinking: anyText(),
  signature,
});

export const wireRedactedThinkingBlock = fc.record({
  type: fc.constant("redacted_thinking" as const),
  data: base64,
});

const userBlock: fc.Arbitrary<MessagesContentBlock> = fc.oneof(
  { weight: 4, arbitrary: wireTextBlock },
  { weight: 1, arbitrary: wireImageBlock },
  { weight: 1, arbitrary: wireDocumentBlock },
  { weight: 2, arbitrary: wireToolResultBlock },
);
const assistantBlock: fc.Arbitrary<MessagesContentBlock> = fc.oneof(
  { weight: 4, arbitrary: wireTextBlock },
  { weight: 2, arbitrary: wireToolUseBlock },
  { weight: 1, arbitrary: wireThinkingBlock },
  { weight: 1, arbitrary: wireRedactedThinkingBlock },
);

export const wireMessage: fc.Arbitrary<MessagesMessage> = fc.oneof(
  fc.record({
    role: fc.constant("user" as const),
    content: fc.oneof(wireText(), fc.array(userBlock, { minLength: 1, maxLength: 4 })),
  }),
  fc.record({
    role: fc.constant("assistant" as const),
    content: fc.oneof(wireText(), fc.array(assistantBlock, { minLength: 1, maxLength: 4 })),
  }),
);

const inputSchema = fc.record({
  type: fc.constant("object"),
  properties: fc.dictionary(identifier, fc.record({ type: fc.constantFrom("string", "number") }), {
    maxKeys: 3,
  }),
});

export const wireTool: fc.Arbitrary<MessagesTool> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        type: fc.constant("custom" as const),
        name: identifier,
        description: anyText(),
        input_schema: inputSchema,
        strict: fc.boolean(),
        cache_control: wireCacheControl,
      },
      { requiredKeys: ["name", "input_schema"] },
    ),
  },
  fc.record(
    {
      type: fc.constantFrom("computer_20241022", "computer_20250124"),
      name: fc.constant("computer"),
      display_width_px: fc.integer({ min: 640, max: 4096 }),
      display_height_px: fc.integer({ min: 480, max: 4096 }),
      display_number: fc.nat(4),
    },
    { requiredKeys: ["type", "name", "display_width_px", "display_height_px"] },
  ),
  fc.record({
    type: fc.constantFrom("bash_20241022", "bash_20250124"),
    name: fc.constant("bash"),
  }),
  fc.record(
    {
      type: fc.constantFrom("text_editor_20241022", "text_editor_20250728"),
      name: fc.constantFrom("str_replace_editor", "str_replace_based_edit_tool"),
      max_characters: fc.integer({ min: 1000, max: 100_000 }),
    },
    { requiredKeys: ["type", "name"] },
  ),
  fc.record(
    {
      type: fc.constant("web_search_20250305"),
      name: fc.constant("web_search"),
      max_uses: fc.integer({ min: 1, max: 10 }),
      allowed_domains: fc.array(fc.domain(), { maxLength: 2 }),
    },
    { requiredKeys: ["type", "name"] },
  ),
);

const parallel = { disable_parallel_tool_use: fc.boolean() };
export const wireToolChoice: fc.Arbitrary<MessagesToolChoice> = fc.oneof(
  fc.record({ type: fc.constant("auto" as const), ...parallel }, { requiredKeys: ["type"] }),
  fc.record({ type: fc.constant("any" as const), ...parallel }, { requiredKeys: ["type"] }),
  fc.record(
    { type: fc.constant("tool" as const), name: identifier, ...parallel },
    {
      requiredKeys: ["type", "name"],
    },
  ),
  fc.constant({ type: "none" as const }),
);

const display = fc.constantFrom("summarized" as const, "omitted" as const);
export const wireThinkingConfig: fc.Arbitrary<MessagesThinkingConfig> = fc.oneof(
  fc.record(
    {
      type: fc.constant("enabled" as const),
      budget_tokens: fc.integer({ min: 1024, max: 32_000 }),
      display,
    },
    { requiredKeys: ["type", "budget_tokens"] },
  ),
  fc.constant({ type: "disabled" as const }),
  fc.record({ type: fc.constant("adaptive" as const), display }, { requiredKeys: ["type"] }),
);

export const wireModel = fc.constantFrom(
  "txtB-opus-4-8",
  "txtB-opus-4-7",
  "txtB-opus-4-6",
  "txtB-sonnet-4-6",
  "txtB-opus-4-5-20251101",
  "claude-sonnet-4-5-20250929",
);

export const wireRequest: fc.Arbitrary<MessagesRequestWire> = fc.record(
  {
    model: wireModel,
    messages: fc.array(wireMessage, { minLength: 1, maxLength: 6 }),
    max_tokens: fc.integer({ min: 1, max: 64_000 }),
    system: fc.oneof(wireText(), fc.array(wireTextBlock, { minLength: 1, maxLength: 3 })),
    temperature: decimal01,
    top_p: decimal01,
    top_k: fc.integer({ min: 1, max: 500 }),
    stop_sequences: fc.array(wireText(8), { maxLength: 4 }),
    metadata: fc.record({ user_id: identifier }),
    tools: fc.array(wireTool, { maxLength: 3 }),
    tool_choice: wireToolChoice,
    thinking: wireThinkingConfig,
    stream: fc.boolean(),
    // Fields the canonical model does not interpret, kept in extras.messages.
    service_tier: fc.constantFrom("auto", "standard_only"),
    output_config: fc.record(
      {
        effort: fc.constantFrom("low", "medium", "high", "max"),
        // Structured output: closed and open objects (the render closes them), other formats.
        format: fc.constantFrom(
          { type: "json_schema", schema: { type: "string" } },
          {
            type: "json_schema",
            schema: { type: "object", properties: { a: { type: "integer" } } },
          },
          {
            type: "json_schema",
            schema: { type: "object", properties: {}, additionalProperties: false },
          },
          { type: "json_schema" },
          { type: "other", x: 1 },
        ),
      },
      { requiredKeys: [] },
    ),
    container: identifier,
  },
  { requiredKeys: ["model", "messages", "max_tokens"] },
);

/* ---- Responses --------------------------------------------------------------------------- */

export const wireUsage: fc.Arbitrary<MessagesUsageWire> = fc
  .record(
    {
      cache_creation_input_tokens: tokenCount,
      cache_read_input_tokens: tokenCount,
      cache_creation: fc.record({
        ephemeral_5m_input_tokens: tokenCount,
        ephemeral_1h_input_tokens: tokenCount,
      }),
      service_tier: fc.option(fc.constantFrom("standard", "priority", "batch"), { nil: null }),
      inference_geo: fc.constantFrom("not_available", "us", "global"),
      output_tokens_details: fc.record({ thinking_tokens: tokenCount }),
    },
    { requiredKeys: [] },
  )
  .chain((optional) =>
    fc.record({ input_tokens: tokenCount, output_tokens: tokenCount }).map((counts) => {
      const usage: MessagesUsageWire = { ...counts, ...optional };
      // Anthropic reports the ttl split of exactly the cache writes it counted.
      if (usage.cache_creation) {
        usage.cache_creation_input_tokens =
          (usage.cache_creation.ephemeral_5m_input_tokens ?? 0) +
          (usage.cache_creation.ephemeral_1h_input_tokens ?? 0);
      }
      return usage;
    }),
  );

/** Block types Anthropic may add that the codec ignores. */
const unknownBlock = fc.oneof(
  fc.record({
    type: fc.constant("server_tool_use"),
    id: toolId,
    name: fc.constant("web_search"),
    input: jsonObject,
  }),
  fc.record({
    type: fc.constant("web_search_tool_result"),
    tool_use_id: toolId,
    content: fc.constant([]),
  }),
);

export const wireResponseBlock = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      { type: fc.constant("text" as const), text: anyText(), citations: fc.constant(null) },
      { requiredKeys: ["type", "text"] },
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        type: fc.constant("tool_use" as const),
        id: toolId,
        name: identifier,
        input: jsonObject,
        caller: fc.record({ type: fc.constant("direct") }),
      },
      { requiredKeys: ["type", "id", "name", "input"] },
    ),
  },
  { weight: 1, arbitrary: wireThinkingBlock },
  { weight: 1, arbitrary: wireRedactedThinkingBlock },
);

export const wireStopReason = fc.constantFrom(
  "end_turn",
  "max_tokens",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "refusal",
  "model_context_window_exceeded",
);

export const wireResponse: fc.Arbitrary<MessagesResponseWire> = fc.record(
  {
    id: identifier.map((id) => `msg_${id}`),
    type: fc.constant("message" as const),
    role: fc.constant("assistant" as const),
    model: wireModel,
    content: fc.array(fc.oneof({ weight: 6, arbitrary: wireResponseBlock }, unknownBlock), {
      maxLength: 5,
    }),
    stop_reason: fc.option(wireStopReason, { nil: null, freq: 8 }),
    stop_sequence: fc.option(wireText(8), { nil: null }),
    stop_details: fc.option(
      fc.record({
        type: fc.constant("refusal"),
        category: fc.constantFrom("cyber", "bio"),
        explanation: anyText(),
      }),
      { nil: null },
    ),
    usage: wireUsage,
    context_management: fc.constant({ applied_edits: [] }),
  },
  { requiredKeys: ["id", "model", "content", "stop_reason", "usage"] },
);

/* ---- Streams ----------------------------------------------------------------------------- */

/** A string cut into pieces at the given offsets (as Anthropic chunks its deltas). */
function pieces(value: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (value.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const cut of at) {
    if (cut > from) out.push(value.slice(from, cut));
    from = Math.max(from, cut);
  }
  if (from < value.length) out.push(value.slice(from));
  return out;
}

/**
 * The SSE events Anthropic streams for a response: message_start (usage with input counts and
 * output 1), each block's start, chunked deltas and stop, message_delta with the final cumulative
 * usage and stop reason, message_stop, with pings in between. Thinking blocks start with an empty
 * signature that arrives whole in a signature_delta, as the real API does.
 */
export function messagesStreamOf(
  response: MessagesResponseWire,
  cuts: readonly number[] = [],
): MessagesStreamEventWire[] {
  const { output_tokens: _final, ...startUsage } = response.usage;
  const events: MessagesStreamEventWire[] = [
    {
      type: "message_start",
      message: {
        id: response.id,
        type: "message",
        role: "assistant",
        model: response.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...startUsage, output_tokens: 1 },
      },
    },
    { type: "ping" },
  ];
  response.content.filter(isKnownResponseBlock).forEach((block, index) => {
    const delta = (d: Extract<MessagesStreamEventWire, { type: "content_block_delta" }>["delta"]) =>
      events.push({ type: "content_block_delta", index, delta: d });
    switch (block.type) {
      case "text":
        events.push({
          type: "content_block_start",
          index,
          content_block: { type: "text", text: "" },
        });
        for (const text of pieces(block.text, cuts)) delta({ type: "text_delta", text });
        break;
      case "thinking":
        events.push({
          type: "content_block_start",
          index,
          content_block: { type: "thinking", thinking: "", signature: "" },
        });
        for (const thinking of pieces(block.thinking, cuts))
          delta({ type: "thinking_delta", thinking });
        if (block.signature) delta({ type: "signature_delta", signature: block.signature });
        break;
      case "redacted_thinking":
        events.push({ type: "content_block_start", index, content_block: { ...block } });
        break;
      case "tool_use":
        events.push({
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id, name: block.name, input: {} },
        });
        delta({ type: "input_json_delta", partial_json: "" });
        for (const json of pieces(JSON.stringify(block.input), cuts)) {
          delta({ type: "input_json_delta", partial_json: json });
        }
        break;
    }
    events.push({ type: "content_block_stop", index });
  });
  events.push(
    {
      type: "message_delta",
      // Anthropic repeats a refusal's stop_details here, as on the whole message.
      delta: {
        stop_reason: response.stop_reason,
        stop_sequence: response.stop_sequence ?? null,
        ...(response.stop_details ? { stop_details: response.stop_details } : {}),
      },
      usage: response.usage,
    },
    { type: "message_stop" },
  );
  return events;
}

/** A response (known block types only) with its stream, chunked at random offsets. */
export const wireStream: fc.Arbitrary<{
  response: MessagesResponseWire;
  events: MessagesStreamEventWire[];
}> = fc
  .record({
    response: wireResponse.map((r) => ({
      ...r,
      content: r.content.filter(isKnownResponseBlock),
    })),
    cuts: fc.array(fc.nat(60), { maxLength: 4 }),
  })
  .map(({ response, cuts }) => ({ response, events: messagesStreamOf(response, cuts) }));
// Law 1's normal forms: what a same-format parse + render changes (test oracles, not converters).
export { normalizeMessagesRequest, normalizeMessagesResponse } from "./normalize-messages.js";
