import { zLooseObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/**
 * OpenAI's Responses API objects and streaming events. docs/api-reference.md does not show the responses
 * stream, so the gateway follows OpenAI's documented events; the decoder reads real recordings
 * (see the fixtures) and `response.parse` also accepts a real Responses object.
 */
export const responsesUsageSchema = zLooseObject({
  /** Includes cached tokens. */
  input_tokens: z.int().check(z.nonnegative()),
  input_tokens_details: z.nullish(
    zLooseObject({
      cached_tokens: z.int().check(z.nonnegative()),
      /** OpenAI's newer count of input tokens written to the cache. */
      cache_write_tokens: z.optional(z.int().check(z.nonnegative())),
    }),
  ),
  /** Includes reasoning tokens. */
  output_tokens: z.int().check(z.nonnegative()),
  output_tokens_details: z.nullish(
    zLooseObject({ reasoning_tokens: z.int().check(z.nonnegative()) }),
  ),
  total_tokens: z.int().check(z.nonnegative()),
});

export const outputTextPartSchema = zLooseObject({
  type: z.literal("output_text"),
  text: z.string(),
  annotations: z.optional(z.array(z.unknown())),
});
export const refusalPartSchema = zLooseObject({
  type: z.literal("refusal"),
  refusal: z.string(),
});
export const summaryPartSchema = zLooseObject({
  type: z.literal("summary_text"),
  text: z.string(),
});

export const outputMessageSchema = zLooseObject({
  type: z.literal("message"),
  id: z.string(),
  role: z.literal("assistant"),
  status: z.optional(z.string()),
  content: z.array(zLooseObject({ type: z.string() })),
});
export const outputFunctionCallSchema = zLooseObject({
  type: z.literal("function_call"),
  id: z.optional(z.string()),
  call_id: z.string(),
  name: z.string(),
  arguments: z.string(),
  /** Set on a call of a tool inside a `namespace` tool. */
  namespace: z.nullish(z.string()),
  status: z.optional(z.string()),
});
/** A call of a `custom` (free-form input) tool. */
export const outputCustomToolCallSchema = zLooseObject({
  type: z.literal("custom_tool_call"),
  id: z.optional(z.string()),
  call_id: z.string(),
  name: z.string(),
  input: z.string(),
  status: z.optional(z.string()),
});
export const outputReasoningSchema = zLooseObject({
  type: z.literal("reasoning"),
  id: z.string(),
  summary: z.array(summaryPartSchema),
  /** Opaque; carried byte for byte as the canonical thinking signature. */
  encrypted_content: z.nullish(z.string()),
  /** Raw reasoning text, where a model exposes it (`reasoning_text` parts). */
  content: z.nullish(z.array(zLooseObject({ type: z.string(), text: z.optional(z.string()) }))),
});
/** Hosted tool calls (web_search_call, file_search_call, mcp_call, ...) have no canonical part. */
export const outputItemSchema = zLooseObject({ type: z.string() });

export const incompleteDetailsSchema = zLooseObject({ reason: z.nullish(z.string()) });
export const responseErrorSchema = zLooseObject({
  code: z.nullish(z.string()),
  message: z.string(),
});

export const responsesObjectSchema = zLooseObject({
  id: z.string(),
  object: z.literal("response"),
  created_at: z.int().check(z.nonnegative()),
  model: z.string(),
  status: z.optional(z.string()),
  output: z.array(outputItemSchema),
  usage: z.nullish(responsesUsageSchema),
  incomplete_details: z.nullish(incompleteDetailsSchema),
  error: z.nullish(responseErrorSchema),
  service_tier: z.nullish(z.string()),
});

export type ResponsesUsage = z.infer<typeof responsesUsageSchema>;
export type ResponsesOutputMessage = z.infer<typeof outputMessageSchema>;
export type ResponsesOutputFunctionCall = z.infer<typeof outputFunctionCallSchema>;
export type ResponsesOutputReasoning = z.infer<typeof outputReasoningSchema>;
export type ResponsesOutputItem = z.infer<typeof outputItemSchema>;
export type ResponsesObject = z.infer<typeof responsesObjectSchema>;
