import { zLooseObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import {
  outputItemSchema,
  outputTextPartSchema,
  refusalPartSchema,
  responsesObjectSchema,
  summaryPartSchema,
} from "./responses-stream-api.js";

// The stream's events, apart from responses-stream-api.ts: the codec reads events field by field
// and never runs this schema, and a bundler drops a module none of whose exports is used (never a
// top-level schema call in one it keeps).

const seq = { sequence_number: z.int().check(z.nonnegative()) };
const inItem = { item_id: z.string(), output_index: z.int().check(z.nonnegative()) };

const lifecycle = <T extends string>(type: T) =>
  zLooseObject({ type: z.literal(type), ...seq, response: responsesObjectSchema });

export const responsesStreamEventSchema = z.discriminatedUnion("type", [
  lifecycle("response.created"),
  lifecycle("response.in_progress"),
  lifecycle("response.completed"),
  lifecycle("response.incomplete"),
  lifecycle("response.failed"),
  zLooseObject({
    type: z.literal("response.output_item.added"),
    ...seq,
    output_index: z.int().check(z.nonnegative()),
    item: outputItemSchema,
  }),
  zLooseObject({
    type: z.literal("response.output_item.done"),
    ...seq,
    output_index: z.int().check(z.nonnegative()),
    item: outputItemSchema,
  }),
  zLooseObject({
    type: z.literal("response.content_part.added"),
    ...seq,
    ...inItem,
    content_index: z.int().check(z.nonnegative()),
    part: z.union([outputTextPartSchema, refusalPartSchema]),
  }),
  zLooseObject({
    type: z.literal("response.content_part.done"),
    ...seq,
    ...inItem,
    content_index: z.int().check(z.nonnegative()),
    part: z.union([outputTextPartSchema, refusalPartSchema]),
  }),
  zLooseObject({
    type: z.literal("response.output_text.delta"),
    ...seq,
    ...inItem,
    content_index: z.int().check(z.nonnegative()),
    delta: z.string(),
  }),
  zLooseObject({
    type: z.literal("response.output_text.done"),
    ...seq,
    ...inItem,
    content_index: z.int().check(z.nonnegative()),
    text: z.string(),
  }),
  zLooseObject({
    type: z.literal("response.refusal.delta"),
    ...seq,
    ...inItem,
    content_index: z.int().check(z.nonnegative()),
    delta: z.string(),
  }),
  zLooseObject({
    type: z.literal("response.refusal.done"),
    ...seq,
    ...inItem,
    content_index: z.int().check(z.nonnegative()),
    refusal: z.string(),
  }),
  zLooseObject({
    type: z.literal("response.function_call_arguments.delta"),
    ...seq,
    ...inItem,
    delta: z.string(),
  }),
  zLooseObject({
    type: z.literal("response.function_call_arguments.done"),
    ...seq,
    ...inItem,
    arguments: z.string(),
  }),
  zLooseObject({
    type: z.literal("response.reasoning_summary_part.added"),
    ...seq,
    ...inItem,
    summary_index: z.int().check(z.nonnegative()),
    part: summaryPartSchema,
  }),
  zLooseObject({
    type: z.literal("response.reasoning_summary_part.done"),
    ...seq,
    ...inItem,
    summary_index: z.int().check(z.nonnegative()),
    part: summaryPartSchema,
  }),
  zLooseObject({
    type: z.literal("response.reasoning_summary_text.delta"),
    ...seq,
    ...inItem,
    summary_index: z.int().check(z.nonnegative()),
    delta: z.string(),
  }),
  zLooseObject({
    type: z.literal("response.reasoning_summary_text.done"),
    ...seq,
    ...inItem,
    summary_index: z.int().check(z.nonnegative()),
    text: z.string(),
  }),
  /**
   * OpenAI documents `{code, message, param}` at the top level; the real API nests the same
   * fields in `error` (see openai-error.1.chunks.txt). The encoder writes both.
   */
  zLooseObject({
    type: z.literal("error"),
    ...seq,
    code: z.nullish(z.string()),
    message: z.optional(z.string()),
    param: z.nullish(z.string()),
    error: z.optional(
      zLooseObject({
        type: z.nullish(z.string()),
        code: z.nullish(z.string()),
        message: z.string(),
        param: z.nullish(z.string()),
      }),
    ),
  }),
]);

export type ResponsesStreamEvent = z.infer<typeof responsesStreamEventSchema>;
export type ResponsesStreamEventType = ResponsesStreamEvent["type"];
