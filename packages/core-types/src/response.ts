import * as z from "zod/mini";
import { finishReasonSchema } from "./finish-reason.js";
import { choiceLogprobsSchema } from "./logprobs.js";
import { assistantMessageSchema } from "./message.js";
import { choiceProviderExtrasSchema, responseProviderExtrasSchema } from "./provider-extras.js";
import { usageSchema } from "./usage.js";
import { extrasSchema } from "./wire-format.js";
import { zObject } from "./zod-object.js";

export const choiceSchema = zObject({
  index: z.number().check(z.int()).check(z.nonnegative()),
  message: assistantMessageSchema,
  finishReason: finishReasonSchema,
  /** The stop sequence that ended generation, when the upstream names it. */
  stopSequence: z.exactOptional(z.string()),
  /** Token log probabilities, when the request asked for them (or the upstream volunteers a mean). */
  logprobs: z.exactOptional(choiceLogprobsSchema),
  /** Provider-only fields of one choice (Gemini safety ratings), by provider. */
  providerExtras: z.exactOptional(choiceProviderExtrasSchema),
});
export type Choice = z.infer<typeof choiceSchema>;

export const responseSchema = zObject({
  id: z.string(),
  model: z.string(),
  /** Unix seconds. */
  created: z.number().check(z.int()).check(z.nonnegative()),
  choices: z.array(choiceSchema),
  usage: usageSchema,
  /** Provider-only fields of the whole reply (Gemini prompt feedback), by provider. */
  providerExtras: z.exactOptional(responseProviderExtrasSchema),
  extras: z.exactOptional(extrasSchema),
});
export type Response = z.infer<typeof responseSchema>;
