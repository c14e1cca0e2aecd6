import * as z from "zod";

/**
 * OpenAI's Responses API objects and streaming events. docs/api-reference.md does not show the responses
 * stream, so the gateway follows OpenAI's documented events; the decoder reads real recordings
 * (see the fixtures) and `response.parse` also accepts a real Responses object.
 */
export const responsesUsageSchema = z.looseObject({
  /** Includes cached tokens. */
  input_tokens: z.int().nonnegative(),
  input_tokens_details: z
    .looseObject({
      cached_tokens: z.int().nonnegative(),
      /** OpenAI's newer count of input tokens written to the cache. */
      cache_write_tokens: z.int().nonnegative().optional(),
    })
    .nullish(),
  /** Includes reasoning tokens. */
  output_tokens: z.int().nonnegative(),
  output_tokens_details: z.looseObject({ reasoning_tokens: z.int().nonnegative() }).nullish(),
  total_tokens: z.int().nonnegative(),
});

export const outputTextPartSchema = z.looseObject({
  type: z.literal("output_text"),
  text: z.string(),
  annotations: z.array(z.unknown()).optional(),
});
export const refusalPartSchema = z.looseObject({
  type: z.literal("refusal"),
  refusal: z.string(),
});
export const summaryPartSchema = z.looseObject({
  type: z.literal("summary_text"),
  text: z.string(),
});

export const outputMessageSchema = z.looseObject({
  type: z.literal("message"),
  id: z.string(),
  role: z.literal("assistant"),
  status: z.string().optional(),
  content: z.array(z.looseObject({ type: z.string() })),
});
export const outputFunctionCallSchema = z.looseObject({
  type: z.literal("function_call"),
  id: z.string().optional(),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  /** Set on a call of a tool inside a `namespace` tool. */
  namespace: z.string().nullish(),
  status: z.string().optional(),
});
/** A call of a `custom` (free-form input) tool. */
export const outputCustomToolCallSchema = z.looseObject({
  type: z.literal("custom_tool_call"),
  id: z.string().optional(),
  call_id: z.string(),
  name: z.string(),
  input: z.string(),
  status: z.string().optional(),
});
export const outputReasoningSchema = z.looseObject({
  type: z.literal("reasoning"),
  id: z.string(),
  summary: z.array(summaryPartSchema),
  /** Opaque; carried byte for byte as the canonical thinking signature. */
  encrypted_content: z.string().nullish(),
  /** Raw reasoning text, where a model exposes it (`reasoning_text` parts). */
  content: z.array(z.looseObject({ type: z.string(), text: z.string().optional() })).nullish(),
});
/** Hosted tool calls (web_search_call, file_search_call, mcp_call, ...) have no canonical part. */
export const outputItemSchema = z.looseObject({ type: z.string() });

export const incompleteDetailsSchema = z.looseObject({ reason: z.string().nullish() });
export const responseErrorSchema = z.looseObject({
  code: z.string().nullish(),
  message: z.string(),
});

export const responsesObjectSchema = z.looseObject({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.int().nonnegative(),
  model: z.string(),
  status: z.string().optional(),
  output: z.array(outputItemSchema),
  usage: responsesUsageSchema.nullish(),
  incomplete_details: incompleteDetailsSchema.nullish(),
  error: responseErrorSchema.nullish(),
  service_tier: z.string().nullish(),
});

const seq = { sequence_number: z.int().nonnegative() };
const inItem = { item_id: z.string(), output_index: z.int().nonnegative() };

const lifecycle = <T extends string>(type: T) =>
  z.looseObject({ type: z.literal(type), ...seq, response: responsesObjectSchema });

export const responsesStreamEventSchema = z.discriminatedUnion("type", [
  lifecycle("response.created"),
  lifecycle("response.in_progress"),
  lifecycle("response.completed"),
  lifecycle("response.incomplete"),
  lifecycle("response.failed"),
  z.looseObject({
    type: z.literal("response.output_item.added"),
    ...seq,
    output_index: z.int().nonnegative(),
    item: outputItemSchema,
  }),
  z.looseObject({
    type: z.literal("response.output_item.done"),
    ...seq,
    output_index: z.int().nonnegative(),
    item: outputItemSchema,
  }),
  z.looseObject({
    type: z.literal("response.content_part.added"),
    ...seq,
    ...inItem,
    content_index: z.int().nonnegative(),
    part: z.union([outputTextPartSchema, refusalPartSchema]),
  }),
  z.looseObject({
    type: z.literal("response.content_part.done"),
    ...seq,
    ...inItem,
    content_index: z.int().nonnegative(),
    part: z.union([outputTextPartSchema, refusalPartSchema]),
  }),
  z.looseObject({
    type: z.literal("response.output_text.delta"),
    ...seq,
    ...inItem,
    content_index: z.int().nonnegative(),
    delta: z.string(),
  }),
  z.looseObject({
    type: z.literal("response.output_text.done"),
    ...seq,
    ...inItem,
    content_index: z.int().nonnegative(),
    text: z.string(),
  }),
  z.looseObject({
    type: z.literal("response.refusal.delta"),
    ...seq,
    ...inItem,
    content_index: z.int().nonnegative(),
    delta: z.string(),
  }),
  z.looseObject({
    type: z.literal("response.refusal.done"),
    ...seq,
    ...inItem,
    content_index: z.int().nonnegative(),
    refusal: z.string(),
  }),
  z.looseObject({
    type: z.literal("response.function_call_arguments.delta"),
    ...seq,
    ...inItem,
    delta: z.string(),
  }),
  z.looseObject({
    type: z.literal("response.function_call_arguments.done"),
    ...seq,
    ...inItem,
    arguments: z.string(),
  }),
  z.looseObject({
    type: z.literal("response.reasoning_summary_part.added"),
    ...seq,
    ...inItem,
    summary_index: z.int().nonnegative(),
    part: summaryPartSchema,
  }),
  z.looseObject({
    type: z.literal("response.reasoning_summary_part.done"),
    ...seq,
    ...inItem,
    summary_index: z.int().nonnegative(),
    part: summaryPartSchema,
  }),
  z.looseObject({
    type: z.literal("response.reasoning_summary_text.delta"),
    ...seq,
    ...inItem,
    summary_index: z.int().nonnegative(),
    delta: z.string(),
  }),
  z.looseObject({
    type: z.literal("response.reasoning_summary_text.done"),
    ...seq,
    ...inItem,
    summary_index: z.int().nonnegative(),
    text: z.string(),
  }),
  /**
   * OpenAI documents `{code, message, param}` at the top level; the real API nests the same
   * fields in `error` (see openai-error.1.chunks.txt). The encoder writes both.
   */
  z.looseObject({
    type: z.literal("error"),
    ...seq,
    code: z.string().nullish(),
    message: z.string().optional(),
    param: z.string().nullish(),
    error: z
      .looseObject({
        type: z.string().nullish(),
        code: z.string().nullish(),
        message: z.string(),
        param: z.string().nullish(),
      })
      .optional(),
  }),
]);

export type ResponsesUsage = z.infer<typeof responsesUsageSchema>;
export type ResponsesOutputMessage = z.infer<typeof outputMessageSchema>;
export type ResponsesOutputFunctionCall = z.infer<typeof outputFunctionCallSchema>;
export type ResponsesOutputReasoning = z.infer<typeof outputReasoningSchema>;
export type ResponsesOutputItem = z.infer<typeof outputItemSchema>;
export type ResponsesObject = z.infer<typeof responsesObjectSchema>;
export type ResponsesStreamEvent = z.infer<typeof responsesStreamEventSchema>;
export type ResponsesStreamEventType = ResponsesStreamEvent["type"];
