import { zLooseObject, zObject } from "@interlingua/core-types";
import * as z from "zod/mini";
import { chatUsageSchema } from "./chat-api.js";

// The stream's chunks, apart from chat-api.ts: the codec reads chunks field by field and never
// runs these schemas, and a bundler drops a module none of whose exports is used (never a
// top-level schema call in one it keeps).

const count = z.number().check(z.int()).check(z.nonnegative());

// ---------- stream chunks ----------

export const chatToolCallDeltaSchema = zObject({
  index: z.optional(count),
  id: z.optional(z.nullable(z.string())),
  type: z.optional(z.nullable(z.literal("function"))),
  function: z.optional(
    z.nullable(
      zObject({
        name: z.optional(z.nullable(z.string())),
        arguments: z.optional(z.nullable(z.string())),
      }),
    ),
  ),
});
export type ChatToolCallDelta = z.infer<typeof chatToolCallDeltaSchema>;

export const chatDeltaSchema = zObject({
  role: z.optional(z.nullable(z.string())),
  content: z.optional(z.nullable(z.string())),
  refusal: z.optional(z.nullable(z.string())),
  reasoning_content: z.optional(z.nullable(z.string())),
  reasoning: z.optional(z.nullable(z.string())),
  tool_calls: z.optional(z.nullable(z.array(chatToolCallDeltaSchema))),
  /** url_citation annotations, indices into the whole content (OpenAI's search models). */
  annotations: z.optional(z.nullable(z.array(z.unknown()))),
});
export type ChatDelta = z.infer<typeof chatDeltaSchema>;

export const chatChunkChoiceSchema = zObject({
  index: count,
  delta: chatDeltaSchema,
  finish_reason: z.optional(z.nullable(z.string())),
  logprobs: z.optional(z.unknown()),
});
export type ChatChunkChoice = z.infer<typeof chatChunkChoiceSchema>;

/** One `chat.completion.chunk`. The usage chunk has `choices: []`. */
export const chatChunkSchema = zLooseObject({
  id: z.string(),
  object: z.optional(z.string()),
  created: count,
  model: z.string(),
  choices: z.array(chatChunkChoiceSchema),
  usage: z.optional(z.nullable(chatUsageSchema)),
  service_tier: z.optional(z.nullable(z.string())),
});
export type ChatChunk = z.infer<typeof chatChunkSchema>;

/** An error inside a 200 stream, as OpenAI sends it. */
export const chatStreamErrorSchema = zObject({
  error: zLooseObject({
    message: z.string(),
    type: z.optional(z.nullable(z.string())),
    code: z.optional(z.nullable(z.union([z.string(), z.number()]))),
    param: z.optional(z.nullable(z.string())),
  }),
});
export type ChatStreamError = z.infer<typeof chatStreamErrorSchema>;

/** OpenAI's `url_citation` annotation: character indices into the message content. */
export const chatUrlCitationSchema = zObject({
  type: z.literal("url_citation"),
  url_citation: zObject({
    url: z.string(),
    title: z.optional(z.string()),
    start_index: z.optional(count),
    end_index: z.optional(count),
  }),
});
export type ChatUrlCitation = z.infer<typeof chatUrlCitationSchema>;
