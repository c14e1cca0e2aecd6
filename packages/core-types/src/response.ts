import * as z from "zod";
import { finishReasonSchema } from "./finish-reason.js";
import { choiceLogprobsSchema } from "./logprobs.js";
import { assistantMessageSchema } from "./message.js";
import { choiceProviderExtrasSchema, responseProviderExtrasSchema } from "./provider-extras.js";
import { usageSchema } from "./usage.js";
import { extrasSchema } from "./wire-format.js";

export const choiceSchema = z.object({
  index: z.number().int().nonnegative(),
  message: assistantMessageSchema,
  finishReason: finishReasonSchema,
  /** The stop sequence that ended generation, when the upstream names it. */
  stopSequence: z.string().exactOptional(),
  /** Token log probabilities, when the request asked for them (or the upstream volunteers a mean). */
  logprobs: choiceLogprobsSchema.exactOptional(),
  /** Provider-only fields of one choice (Gemini safety ratings), by provider. */
  providerExtras: choiceProviderExtrasSchema.exactOptional(),
});
export type Choice = z.infer<typeof choiceSchema>;

export const responseSchema = z.object({
  id: z.string(),
  model: z.string(),
  /** Unix seconds. */
  created: z.number().int().nonnegative(),
  choices: z.array(choiceSchema),
  usage: usageSchema,
  /** Provider-only fields of the whole reply (Gemini prompt feedback), by provider. */
  providerExtras: responseProviderExtrasSchema.exactOptional(),
  extras: extrasSchema.exactOptional(),
});
export type Response = z.infer<typeof responseSchema>;
