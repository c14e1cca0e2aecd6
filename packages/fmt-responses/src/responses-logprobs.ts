import type { LogprobCandidate, TokenLogprob } from "@interlingua/core-types";
import { zObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/** The `include` entry that asks the Responses API for output_text logprobs. */
export const RESPONSES_LOGPROBS_INCLUDE = "message.output_text.logprobs";

const topLogprobSchema = zObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.nullish(z.array(z.int().check(z.gte(0)).check(z.lte(255)))),
});
const tokenLogprobSchema = z.extend(topLogprobSchema, {
  top_logprobs: z.nullish(z.array(topLogprobSchema)),
});
/** An output_text's `logprobs` (OpenAI's LogProb; stream deltas leave out `bytes`). */
export const responsesLogprobsSchema = z.array(tokenLogprobSchema);

export interface ResponsesTopLogprobOut {
  token: string;
  logprob: number;
  bytes: number[];
}
export interface ResponsesTokenLogprobOut extends ResponsesTopLogprobOut {
  top_logprobs: ResponsesTopLogprobOut[];
}

/** `bytes` is required on the object's LogProb: absent canonically is `[]` (no token is empty). */
function candidate(wire: z.infer<typeof topLogprobSchema>): LogprobCandidate {
  const out: LogprobCandidate = { token: wire.token, logprob: wire.logprob };
  if (wire.bytes != null && wire.bytes.length > 0) out.bytes = wire.bytes;
  return out;
}

/** An output_text's (or a stream event's) `logprobs` -> canonical tokens; [] when not OpenAI's shape. */
export function parseResponsesLogprobs(value: unknown): TokenLogprob[] {
  const parsed = responsesLogprobsSchema.safeParse(value);
  if (!parsed.success) return [];
  return parsed.data.map((t) => ({
    ...candidate(t),
    topLogprobs: (t.top_logprobs ?? []).map(candidate),
  }));
}

const renderCandidate = (c: LogprobCandidate): ResponsesTopLogprobOut => ({
  token: c.token,
  logprob: c.logprob,
  bytes: c.bytes ?? [],
});

/** Canonical tokens -> an output_text's `logprobs`. */
export function renderResponsesLogprobs(
  tokens: readonly TokenLogprob[],
): ResponsesTokenLogprobOut[] {
  return tokens.map((t) => ({
    ...renderCandidate(t),
    top_logprobs: t.topLogprobs.map(renderCandidate),
  }));
}

/** The same for a stream event (`response.output_text.done`): OpenAI's ResponseLogProb, no bytes. */
export function renderResponsesEventLogprobs(tokens: readonly TokenLogprob[]) {
  return tokens.map((t) => ({
    token: t.token,
    logprob: t.logprob,
    top_logprobs: t.topLogprobs.map((c) => ({ token: c.token, logprob: c.logprob })),
  }));
}
