import type {
  LogprobCandidate,
  OutputLogprobs,
  TokenLogprob,
  Warning,
} from "@interlingua/core-types";
import { zObject } from "@interlingua/core-types";
import * as z from "zod/mini";

const byteSchema = z.int().check(z.gte(0)).check(z.lte(255));
const chatTopLogprobSchema = zObject({
  token: z.string(),
  logprob: z.number(),
  bytes: z.nullish(z.array(byteSchema)),
});
export const chatTokenLogprobSchema = z.extend(chatTopLogprobSchema, {
  top_logprobs: z.nullish(z.array(chatTopLogprobSchema)),
});
/** `choices[].logprobs` of a chat completion or chunk (OpenAI's shape). */
export const chatLogprobsSchema = zObject({
  content: z.nullish(z.array(chatTokenLogprobSchema)),
  refusal: z.nullish(z.array(chatTokenLogprobSchema)),
});
export type ChatTokenLogprob = z.infer<typeof chatTokenLogprobSchema>;

/** What the render writes: bytes always present (null when unknown), refusal tokens in content. */
export interface ChatTokenLogprobOut {
  token: string;
  logprob: number;
  bytes: number[] | null;
  top_logprobs: { token: string; logprob: number; bytes: number[] | null }[];
}
export interface ChatLogprobsOut {
  content: ChatTokenLogprobOut[];
  refusal: null;
}

function candidate(wire: z.infer<typeof chatTopLogprobSchema>): LogprobCandidate {
  const out: LogprobCandidate = { token: wire.token, logprob: wire.logprob };
  if (wire.bytes != null) out.bytes = wire.bytes;
  return out;
}

/**
 * A choice's `logprobs` -> its canonical tokens: content then refusal tokens (a refusal is text
 * canonically). Undefined for null, no tokens, or a shape that is not OpenAI's (some compatible
 * servers send the legacy completions form), which the normal form drops as well.
 */
export function parseChatLogprobs(value: unknown): TokenLogprob[] | undefined {
  if (value == null) return undefined;
  const parsed = chatLogprobsSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const tokens = [...(parsed.data.content ?? []), ...(parsed.data.refusal ?? [])];
  if (tokens.length === 0) return undefined;
  return tokens.map((t) => ({
    ...candidate(t),
    topLogprobs: (t.top_logprobs ?? []).map(candidate),
  }));
}

const renderCandidate = (c: LogprobCandidate) => ({
  token: c.token,
  logprob: c.logprob,
  bytes: c.bytes ?? null,
});

/** Canonical tokens -> chat's `logprobs.content`. */
export function renderChatTokens(tokens: readonly TokenLogprob[]): ChatTokenLogprobOut[] {
  return tokens.map((t) => ({
    ...renderCandidate(t),
    top_logprobs: t.topLogprobs.map(renderCandidate),
  }));
}

/**
 * An output's canonical logprobs -> chat's. Gemini's mean and vocabulary ids have no field in
 * chat: each is reported once as dropped (`<at>.average`, `<at>.tokenId`).
 */
export function renderChatLogprobs(
  logprobs: OutputLogprobs,
  at: string,
  warn: (warning: Warning) => void,
): ChatLogprobsOut | null {
  warnChatLogprobsLoss(logprobs, at, warn);
  if (logprobs.content.length === 0) return null;
  return { content: renderChatTokens(logprobs.content), refusal: null };
}

export function warnChatLogprobsLoss(
  logprobs: { content: readonly TokenLogprob[]; average?: number },
  at: string,
  warn: (warning: Warning) => void,
): void {
  if (logprobs.average !== undefined) {
    warn({
      type: "dropped",
      feature: `${at}.average`,
      message: "chat has no mean log probability",
    });
  }
  if (
    logprobs.content.some(
      (t) => t.tokenId !== undefined || t.topLogprobs.some((c) => c.tokenId !== undefined),
    )
  ) {
    warn({ type: "dropped", feature: `${at}.tokenId`, message: "chat has no token ids" });
  }
}

/** The normal form of a choice's `logprobs` (law 1): OpenAI's shape with its tokens, or null. */
export function normalizeChatLogprobs(value: unknown): ChatLogprobsOut | null {
  const tokens = parseChatLogprobs(value);
  return tokens === undefined ? null : { content: renderChatTokens(tokens), refusal: null };
}
