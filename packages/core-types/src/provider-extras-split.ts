// Apart from provider-extras.ts, which holds zod schemas: the codecs call these helpers, and a
// bundler drops a module none of whose exports is used, but never a top-level schema call in one it
// keeps.
import type {
  OutputProviderExtras,
  ReplyProviderExtras,
  ResponseProviderExtras,
} from "./provider-extras.js";

/**
 * `response.providerExtras` split into the reply's own (a `provider-extras` event) and the
 * primary output's (its `finish` event); each is undefined when it says nothing.
 */
export function splitResponseProviderExtras(extras: ResponseProviderExtras | undefined): {
  reply?: ReplyProviderExtras;
  output?: OutputProviderExtras;
} {
  if (extras === undefined) return {};
  if (extras.gemini === undefined) return { reply: {} };
  const { safetyRatings, ...rest } = extras.gemini;
  const out: { reply?: ReplyProviderExtras; output?: OutputProviderExtras } = {};
  if (safetyRatings === undefined || Object.keys(rest).length > 0) out.reply = { gemini: rest };
  if (safetyRatings !== undefined) out.output = { gemini: { safetyRatings } };
  return out;
}

/** The reverse of `splitResponseProviderExtras`: undefined when neither says anything. */
export function joinResponseProviderExtras(
  reply: ReplyProviderExtras | undefined,
  output: OutputProviderExtras | undefined,
): ResponseProviderExtras | undefined {
  if (reply === undefined && output === undefined) return undefined;
  if (reply?.gemini === undefined && output?.gemini === undefined) return {};
  return { gemini: { ...reply?.gemini, ...output?.gemini } };
}
