import * as z from "zod/mini";
import { zObject } from "./zod-object.js";

/**
 * Extended thinking / reasoning. `enabled` with a token budget is Anthropic's and Gemini's form;
 * `effort` is OpenAI's reasoning_effort; `adaptive` lets the model decide (Anthropic's newer
 * models). `includeThoughts` asks for thought text where the upstream makes it optional (Gemini).
 */
export const thinkingEffortSchema = z.enum(["minimal", "low", "medium", "high"]);
export type ThinkingEffort = z.infer<typeof thinkingEffortSchema>;

export const thinkingConfigSchema = zObject({
  type: z.enum(["enabled", "disabled", "adaptive"]),
  budgetTokens: z.exactOptional(z.number().check(z.int()).check(z.nonnegative())),
  effort: z.exactOptional(thinkingEffortSchema),
  includeThoughts: z.exactOptional(z.boolean()),
});
export type ThinkingConfig = z.infer<typeof thinkingConfigSchema>;
