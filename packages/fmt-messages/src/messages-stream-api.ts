import { zLooseObject, zObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import { messagesUsageSchema } from "./messages-api.js";

// The stream's events, apart from messages-api.ts: the codec reads events field by field and
// never runs these schemas, and a bundler drops a module none of whose exports is used (never a
// top-level schema call in one it keeps).

const opt = <T extends z.ZodMiniType>(schema: T) => z.nullish(schema);

/* ---- Stream events ---------------------------------------------------------------------- */

export const messagesErrorBodySchema = zObject({
  type: z.literal("error"),
  error: zObject({ type: z.string(), message: z.string() }),
});
export type MessagesErrorBody = z.infer<typeof messagesErrorBodySchema>;

/** message_delta usage: cumulative; any field may be present (input_tokens included). */
export const messagesDeltaUsageSchema = z.partial(messagesUsageSchema);

export const messagesStreamEventSchema = z.discriminatedUnion("type", [
  zObject({
    type: z.literal("message_start"),
    message: zObject({
      id: z.string(),
      type: z.optional(z.literal("message")),
      role: z.optional(z.literal("assistant")),
      model: z.string(),
      content: z.array(z.unknown()),
      stop_reason: z.optional(z.nullable(z.string())),
      stop_sequence: opt(z.string()),
      usage: messagesDeltaUsageSchema,
    }),
  }),
  zObject({
    type: z.literal("content_block_start"),
    index: z.number().check(z.int()).check(z.gte(0)),
    content_block: zLooseObject({ type: z.string() }),
  }),
  zObject({
    type: z.literal("content_block_delta"),
    index: z.number().check(z.int()).check(z.gte(0)),
    delta: z.discriminatedUnion("type", [
      zObject({ type: z.literal("text_delta"), text: z.string() }),
      zObject({ type: z.literal("input_json_delta"), partial_json: z.string() }),
      zObject({ type: z.literal("thinking_delta"), thinking: z.string() }),
      zObject({ type: z.literal("signature_delta"), signature: z.string() }),
      zObject({ type: z.literal("citations_delta"), citation: z.unknown() }),
    ]),
  }),
  zObject({
    type: z.literal("content_block_stop"),
    index: z.number().check(z.int()).check(z.gte(0)),
  }),
  zObject({
    type: z.literal("message_delta"),
    delta: zObject({
      stop_reason: z.optional(z.nullable(z.string())),
      stop_sequence: opt(z.string()),
      stop_details: opt(z.record(z.string(), z.unknown())),
    }),
    usage: z.optional(messagesDeltaUsageSchema),
  }),
  zObject({ type: z.literal("message_stop") }),
  zObject({ type: z.literal("ping") }),
  messagesErrorBodySchema,
]);
export type MessagesStreamEventWire = z.infer<typeof messagesStreamEventSchema>;
