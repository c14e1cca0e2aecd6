import * as z from "zod/mini";
import { zObject } from "./zod-object.js";

/**
 * Sampling parameters in their widest canonical range. Each format narrows them to its own limits
 * at parse time (messages: temperature 0..1; chat: stop up to 4), so a canonical value may hold
 * something one format refuses on render.
 */
export const samplingSchema = zObject({
  temperature: z.exactOptional(z.number().check(z.gte(0)).check(z.lte(2))),
  topP: z.exactOptional(z.number().check(z.gte(0)).check(z.lte(1))),
  topK: z.exactOptional(z.number().check(z.int()).check(z.nonnegative())),
  maxTokens: z.exactOptional(z.number().check(z.int()).check(z.positive())),
  stop: z.exactOptional(z.array(z.string())),
  frequencyPenalty: z.exactOptional(z.number().check(z.gte(-2)).check(z.lte(2))),
  presencePenalty: z.exactOptional(z.number().check(z.gte(-2)).check(z.lte(2))),
  seed: z.exactOptional(z.number().check(z.int())),
  /**
   * Number of outputs asked for (the primary one and alternatives); formats without `n` refuse
   * values above 1.
   */
  n: z.exactOptional(z.number().check(z.int()).check(z.positive())),
});
export type Sampling = z.infer<typeof samplingSchema>;
