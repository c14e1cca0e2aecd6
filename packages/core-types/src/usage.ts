import * as z from "zod/mini";
import { usageProviderExtrasSchema } from "./provider-extras.js";
import { zObject } from "./zod-object.js";

const count = z.number().check(z.int()).check(z.nonnegative());

/**
 * Token usage with one fixed meaning, converted explicitly at every format boundary:
 * - `inputTokens` counts every prompt token, including cache reads and cache writes
 *   (OpenAI prompt_tokens and Gemini promptTokenCount already do; Anthropic input_tokens does not,
 *   so its codec adds cache_read_input_tokens and cache_creation_input_tokens).
 * - `outputTokens` counts every generated token, including thinking (Anthropic output_tokens and
 *   OpenAI completion_tokens already do; Gemini candidatesTokenCount does not, so its codec adds
 *   thoughtsTokenCount).
 * - `cachedInputTokens` and `cacheWriteTokens` are subsets of `inputTokens`; `thinkingTokens` is a
 *   subset of `outputTokens`.
 * - `known: false` says the upstream reported no usage at all: the counts are then zeros that
 *   mean "unknown", not "free" (a biller estimates instead). Absent, the counts are as reported.
 */
export const usageSchema = zObject({
  inputTokens: count,
  outputTokens: count,
  cachedInputTokens: count,
  cacheWriteTokens: count,
  thinkingTokens: count,
  /** Split of cacheWriteTokens by ttl, where the upstream reports it (Anthropic cache_creation). */
  cacheWrite5mTokens: z.exactOptional(count),
  cacheWrite1hTokens: z.exactOptional(count),
  serviceTier: z.exactOptional(z.string()),
  /** Only ever `false`: the reply carried no usage (see above). */
  known: z.exactOptional(z.literal(false)),
  /** Provider-only fields (Gemini per-modality prompt tokens, Anthropic inference geo), by provider. */
  providerExtras: z.exactOptional(usageProviderExtrasSchema),
});
export type Usage = z.infer<typeof usageSchema>;
