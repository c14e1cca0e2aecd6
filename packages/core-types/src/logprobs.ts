import * as z from "zod/mini";
import { zObject } from "./zod-object.js";

/**
 * Token log probabilities: what OpenAI chat (`choices[].logprobs.content`), the Responses API
 * (`output_text.logprobs`) and Gemini (`logprobsResult`, `avgLogprobs`) return when asked.
 * `bytes` is the token's UTF-8 bytes (OpenAI), `tokenId` the vocabulary id (Gemini); each is
 * kept where its format has room and omitted elsewhere (derivable or meaningless there).
 */
export const logprobCandidateSchema = zObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.exactOptional(z.array(z.int().check(z.gte(0)).check(z.lte(255)))),
  tokenId: z.exactOptional(z.int()),
});
export type LogprobCandidate = z.infer<typeof logprobCandidateSchema>;

/** One generated token and the most likely alternatives at its step (empty when none asked). */
export const tokenLogprobSchema = z.extend(logprobCandidateSchema, {
  topLogprobs: z.array(logprobCandidateSchema),
});
export type TokenLogprob = z.infer<typeof tokenLogprobSchema>;

/** An output's log probabilities: its tokens in order, and Gemini's mean over them. */
export const outputLogprobsSchema = zObject({
  content: z.array(tokenLogprobSchema),
  /** The mean log probability of the output's tokens, when the upstream reports it. */
  average: z.exactOptional(z.number()),
});
export type OutputLogprobs = z.infer<typeof outputLogprobsSchema>;
