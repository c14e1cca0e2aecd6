import * as z from "zod/mini";
import { finishReasonSchema } from "./finish-reason.js";
import { outputLogprobsSchema } from "./logprobs.js";
import { assistantMessageSchema } from "./message.js";
import { outputProviderExtrasSchema, responseProviderExtrasSchema } from "./provider-extras.js";
import { usageSchema } from "./usage.js";
import { extrasSchema } from "./wire-format.js";
import { zObject } from "./zod-object.js";

/** What one generated output holds; the response carries its primary output's at its top level. */
const outputFields = {
  message: assistantMessageSchema,
  finishReason: finishReasonSchema,
  /** The stop sequence that ended generation, when the upstream names it. */
  stopSequence: z.exactOptional(z.string()),
  /** Token log probabilities, when the request asked for them (or the upstream volunteers a mean). */
  logprobs: z.exactOptional(outputLogprobsSchema),
};

/**
 * A further output, when the request asked for more than one (chat `n`, Gemini
 * `candidateCount`); the primary output is the response's own fields.
 */
export const alternativeSchema = zObject({
  /** Its position among the outputs: 1 and up, the primary output being 0. */
  index: z.number().check(z.int()).check(z.positive()),
  ...outputFields,
  /** Provider-only fields of this output (Gemini safety ratings), by provider. */
  providerExtras: z.exactOptional(outputProviderExtrasSchema),
});
export type Alternative = z.infer<typeof alternativeSchema>;

export const responseSchema = zObject({
  id: z.string(),
  model: z.string(),
  /** Unix seconds. */
  created: z.number().check(z.int()).check(z.nonnegative()),
  // The primary output, directly: every format has one, and most have only that.
  ...outputFields,
  /** Outputs beyond the primary one, in the upstream's order; omitted when there are none. */
  alternatives: z.exactOptional(z.array(alternativeSchema)),
  /**
   * The upstream sent no primary output at all (chat `choices: []`, Gemini without candidates):
   * `message` is then empty and `finishReason` is `other`, and renderers write none either.
   */
  noOutput: z.exactOptional(z.literal(true)),
  usage: usageSchema,
  /**
   * Provider-only fields of the whole reply (Gemini prompt feedback) and of its primary output
   * (Gemini safety ratings), by provider.
   */
  providerExtras: z.exactOptional(responseProviderExtrasSchema),
  extras: z.exactOptional(extrasSchema),
});
export type Response = z.infer<typeof responseSchema>;

/** A response without its outputs: what `withOutputs` completes. */
export type ResponseBase = Omit<Response, keyof typeof outputFields | "alternatives" | "noOutput">;

/**
 * One output with its position (0: the primary output), for formats that list several (chat
 * `choices`, Gemini `candidates`); `outputsOf` and `withOutputs` convert.
 */
export type IndexedOutput = Omit<Alternative, "index"> & { index: number };
