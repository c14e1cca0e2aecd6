import * as z from "zod";

/**
 * Why generation stopped: one unified value every format maps to and from by table, and the raw
 * value the upstream sent, kept so that same-format round trips are exact.
 */
export const unifiedFinishReasonSchema = z.enum([
  "stop",
  "length",
  "tool-calls",
  "content-filter",
  "error",
  "other",
]);
export type UnifiedFinishReason = z.infer<typeof unifiedFinishReasonSchema>;

export const finishReasonSchema = z.object({
  unified: unifiedFinishReasonSchema,
  raw: z.string().exactOptional(),
});
export type FinishReason = z.infer<typeof finishReasonSchema>;
