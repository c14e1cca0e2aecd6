import * as z from "zod/mini";
import { zObject } from "./zod-object.js";

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

/**
 * `category` and `explanation` say why a reply was refused or blocked when the upstream says so
 * (Anthropic `stop_details`, Gemini `finishMessage`), so a format with room for them shows them.
 */
export const finishReasonSchema = zObject({
  unified: unifiedFinishReasonSchema,
  raw: z.exactOptional(z.string()),
  category: z.exactOptional(z.string()),
  explanation: z.exactOptional(z.string()),
});
export type FinishReason = z.infer<typeof finishReasonSchema>;
