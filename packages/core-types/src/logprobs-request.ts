// Apart from logprobs.ts, which holds zod schemas: the codecs call these helpers, and a bundler
// drops a module none of whose exports is used, but never a top-level schema call in one it keeps.
import type { Warning } from "./warning.js";

/** The largest number of alternatives per token any format asks for (OpenAI and Gemini: 20). */
export const MAX_TOP_LOGPROBS = 20;

/**
 * For formats that cannot ask for log probabilities (Anthropic): reports the request's
 * `logprobs` and `topLogprobs` as dropped, so strict mode refuses. Values that ask for nothing
 * (`logprobs: false`, `topLogprobs: 0`) lose nothing and are not reported.
 */
export function warnLogprobsRequest(
  request: { logprobs?: boolean; topLogprobs?: number },
  onWarning: ((warning: Warning) => void) | undefined,
  format: string,
): void {
  if (request.logprobs === true) {
    onWarning?.({ type: "dropped", feature: "logprobs", message: `${format} has no logprobs` });
  }
  if (request.topLogprobs !== undefined && request.topLogprobs > 0) {
    onWarning?.({
      type: "dropped",
      feature: "topLogprobs",
      message: `${format} has no logprobs`,
    });
  }
}
