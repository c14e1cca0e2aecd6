import * as z from "zod/mini";
import { citationSchema } from "./content-part.js";
import { finishReasonSchema } from "./finish-reason.js";
import { tokenLogprobSchema } from "./logprobs.js";
import { outputProviderExtrasSchema, replyProviderExtrasSchema } from "./provider-extras.js";
import { usageSchema } from "./usage.js";
import { zObject } from "./zod-object.js";

/**
 * Canonical stream events, named noun-then-verb. `index` is the part's position in the output's
 * message; `alternative` is the output's index (`Alternative.index`), omitted for the primary
 * output. Decoders of formats without
 * explicit part starts (OpenAI chat, Gemini) emit `part-start`/`tool-call-start` at a part's first
 * fragment, so every part is bracketed by a start and a `part-end`.
 */
const at = {
  index: z.number().check(z.int()).check(z.nonnegative()),
  /** Which alternative the event belongs to; omitted for the primary output (index 0). */
  alternative: z.exactOptional(z.number().check(z.int()).check(z.positive())),
};

export const responseStartEventSchema = zObject({
  type: z.literal("response-start"),
  id: z.string(),
  model: z.string(),
  created: z.number().check(z.int()).check(z.nonnegative()),
});
export const partStartEventSchema = zObject({
  type: z.literal("part-start"),
  ...at,
  kind: z.enum(["text", "thinking"]),
});
export const textDeltaEventSchema = zObject({
  type: z.literal("text-delta"),
  ...at,
  delta: z.string(),
});
export const thinkingDeltaEventSchema = zObject({
  type: z.literal("thinking-delta"),
  ...at,
  delta: z.string(),
});
/** An opaque signature for the part at `index` (thinking, or a Gemini text/tool-call part). */
export const signatureDeltaEventSchema = zObject({
  type: z.literal("signature-delta"),
  ...at,
  signature: z.string(),
});
export const redactedThinkingEventSchema = zObject({
  type: z.literal("redacted-thinking"),
  ...at,
  data: z.string(),
});
export const toolCallStartEventSchema = zObject({
  type: z.literal("tool-call-start"),
  ...at,
  id: z.string(),
  name: z.string(),
  /** As on the tool-call part: a namespaced call, or a custom tool's raw-input call. */
  namespace: z.exactOptional(z.string().check(z.minLength(1))),
  custom: z.exactOptional(z.literal(true)),
});
export const toolArgumentsDeltaEventSchema = zObject({
  type: z.literal("tool-arguments-delta"),
  ...at,
  delta: z.string(),
});
/**
 * A source cited by the text part at `index`, sent while the part is open (before its part-end).
 * Indices, when given, are UTF-16 offsets into that part's whole text, as on `TextPart.citations`.
 */
export const citationEventSchema = zObject({
  type: z.literal("citation"),
  ...at,
  citation: citationSchema,
});
export const partEndEventSchema = zObject({ type: z.literal("part-end"), ...at });
/** Cumulative usage so far; a later usage event replaces an earlier one. */
export const usageEventSchema = zObject({ type: z.literal("usage"), usage: usageSchema });
export const finishEventSchema = zObject({
  type: z.literal("finish"),
  alternative: z.exactOptional(z.number().check(z.int()).check(z.positive())),
  finishReason: finishReasonSchema,
  stopSequence: z.exactOptional(z.string()),
  /** The output's provider-only fields, as on `Alternative.providerExtras`. */
  providerExtras: z.exactOptional(outputProviderExtrasSchema),
});
/**
 * The whole reply's provider-only fields (Gemini prompt feedback), as on
 * `Response.providerExtras`; a later event replaces what an earlier one said for the same provider.
 */
export const providerExtrasEventSchema = zObject({
  type: z.literal("provider-extras"),
  providerExtras: replyProviderExtrasSchema,
});
export const errorEventSchema = zObject({
  type: z.literal("error"),
  error: zObject({
    status: z.number().check(z.int()),
    type: z.string(),
    message: z.string(),
    code: z.exactOptional(z.string()),
  }),
});

/**
 * Log probabilities of an output's tokens streamed so far: `content` is appended in order to the
 * output's `logprobs.content`; `average` (Gemini's mean) replaces an earlier one.
 */
export const logprobsEventSchema = zObject({
  type: z.literal("logprobs"),
  alternative: z.exactOptional(z.number().check(z.int()).check(z.positive())),
  content: z.array(tokenLogprobSchema),
  average: z.exactOptional(z.number()),
});

export const streamEventSchema = z.discriminatedUnion("type", [
  responseStartEventSchema,
  partStartEventSchema,
  textDeltaEventSchema,
  thinkingDeltaEventSchema,
  signatureDeltaEventSchema,
  redactedThinkingEventSchema,
  toolCallStartEventSchema,
  toolArgumentsDeltaEventSchema,
  citationEventSchema,
  partEndEventSchema,
  usageEventSchema,
  finishEventSchema,
  providerExtrasEventSchema,
  errorEventSchema,
  logprobsEventSchema,
]);
export type StreamEvent = z.infer<typeof streamEventSchema>;
export type StreamEventType = StreamEvent["type"];
export type StreamEventOf<T extends StreamEventType> = Extract<StreamEvent, { type: T }>;
