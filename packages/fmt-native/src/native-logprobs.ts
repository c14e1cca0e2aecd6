import type {
  LogprobCandidate,
  OutputLogprobs,
  TokenLogprob,
  Warning,
} from "@interlingua/core-types";
import { zObject } from "@interlingua/core-types";
import * as z from "zod/mini";

/** One token of `logprobsResult`; proto3 JSON leaves out zero values, so each may be absent. */
const nativeLogprobsCandidateSchema = zObject({
  token: z.optional(z.string()),
  tokenId: z.optional(z.int()),
  logProbability: z.optional(z.number()),
});
/**
 * A candidate's `logprobsResult`: the chosen token and the top alternatives at each decoding
 * step (`generationConfig.responseLogprobs` / `logprobs`). `logProbabilitySum` is the sum of the
 * chosen ones (derivable, not carried).
 */
export const nativeLogprobsResultSchema = zObject({
  topCandidates: z.optional(
    z.array(zObject({ candidates: z.optional(z.array(nativeLogprobsCandidateSchema)) })),
  ),
  chosenCandidates: z.optional(z.array(nativeLogprobsCandidateSchema)),
  logProbabilitySum: z.optional(z.number()),
});
type NativeLogprobsCandidate = z.infer<typeof nativeLogprobsCandidateSchema>;

export interface NativeLogprobsCandidateOut {
  token: string;
  logProbability: number;
  tokenId?: number;
}
export interface NativeLogprobsOut {
  logprobsResult?: {
    topCandidates?: { candidates: NativeLogprobsCandidateOut[] }[];
    chosenCandidates: NativeLogprobsCandidateOut[];
  };
  avgLogprobs?: number;
}

function candidate(wire: NativeLogprobsCandidate): LogprobCandidate {
  const out: LogprobCandidate = { token: wire.token ?? "", logprob: wire.logProbability ?? 0 };
  if (wire.tokenId !== undefined) out.tokenId = wire.tokenId;
  return out;
}

/**
 * A candidate's `logprobsResult` and `avgLogprobs` -> canonical logprobs: the chosen tokens in
 * order, each with the step's top candidates. Undefined when neither says anything (no tokens,
 * no mean) or the result is not in Gemini's shape (dropped, as the normal form says).
 */
export function parseNativeLogprobs(
  result: unknown,
  average: number | undefined,
): OutputLogprobs | undefined {
  const parsed = nativeLogprobsResultSchema.safeParse(result ?? {});
  const chosen = parsed.success ? (parsed.data.chosenCandidates ?? []) : [];
  const top = parsed.success ? (parsed.data.topCandidates ?? []) : [];
  if (chosen.length === 0 && average === undefined) return undefined;
  const content: TokenLogprob[] = chosen.map((c, i) => ({
    ...candidate(c),
    topLogprobs: (top[i]?.candidates ?? []).map(candidate),
  }));
  return average === undefined ? { content } : { content, average };
}

const renderCandidate = (c: LogprobCandidate): NativeLogprobsCandidateOut =>
  c.tokenId === undefined
    ? { token: c.token, logProbability: c.logprob }
    : { token: c.token, logProbability: c.logprob, tokenId: c.tokenId };

/**
 * Canonical logprobs -> a candidate's `logprobsResult` (topCandidates only when some step has
 * alternatives) and `avgLogprobs`. Gemini tokens carry no bytes: reported once as dropped.
 */
export function renderNativeLogprobs(
  logprobs: { content: readonly TokenLogprob[]; average?: number },
  at: string,
  warn: ((warning: Warning) => void) | undefined,
): NativeLogprobsOut {
  const out: NativeLogprobsOut = {};
  const { content } = logprobs;
  if (
    content.some((t) => t.bytes !== undefined || t.topLogprobs.some((c) => c.bytes !== undefined))
  ) {
    warn?.({ type: "dropped", feature: `${at}.bytes`, message: "Gemini tokens carry no bytes" });
  }
  if (content.length > 0) {
    out.logprobsResult = content.some((t) => t.topLogprobs.length > 0)
      ? {
          topCandidates: content.map((t) => ({ candidates: t.topLogprobs.map(renderCandidate) })),
          chosenCandidates: content.map(renderCandidate),
        }
      : { chosenCandidates: content.map(renderCandidate) };
  }
  if (logprobs.average !== undefined) out.avgLogprobs = logprobs.average;
  return out;
}

/** The normal form of a candidate's logprobs fields (law 1): what parse then render writes. */
export function normalizeNativeLogprobs(
  result: unknown,
  average: number | undefined,
): NativeLogprobsOut {
  const logprobs = parseNativeLogprobs(result, average);
  return logprobs === undefined ? {} : renderNativeLogprobs(logprobs, "", undefined);
}
