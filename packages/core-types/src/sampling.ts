import * as z from "zod";

/**
 * Sampling parameters in their widest canonical range. Each format narrows them to its own limits
 * at parse time (messages: temperature 0..1; chat: stop up to 4), so a canonical value may hold
 * something one format refuses on render.
 */
export const samplingSchema = z.object({
  temperature: z.number().min(0).max(2).exactOptional(),
  topP: z.number().min(0).max(1).exactOptional(),
  topK: z.number().int().nonnegative().exactOptional(),
  maxTokens: z.number().int().positive().exactOptional(),
  stop: z.array(z.string()).exactOptional(),
  frequencyPenalty: z.number().min(-2).max(2).exactOptional(),
  presencePenalty: z.number().min(-2).max(2).exactOptional(),
  seed: z.number().int().exactOptional(),
  /**
   * Number of outputs asked for (the primary one and alternatives); formats without `n` refuse
   * values above 1.
   */
  n: z.number().int().positive().exactOptional(),
});
export type Sampling = z.infer<typeof samplingSchema>;
