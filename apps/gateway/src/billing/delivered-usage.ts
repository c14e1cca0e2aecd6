import type { Usage } from "@interlingua/core-types";
import { plainUsage } from "./charge.ts";
import { CHARS_PER_TOKEN } from "./prompt-size.ts";

/**
 * The usage of a call whose upstream delivered without reporting (all of) it: what it did report
 * is kept (a stream cut after its first usage frame knows its real prompt), the prompt it did not
 * report is the likely estimate, and the output is at least the delivered text at four characters
 * a token (text, thinking and tool arguments as they passed through the gateway).
 */
export function deliveredUsage(
  reported: Usage | undefined,
  likelyPromptTokens: number,
  outputChars: number,
): Usage {
  const output = Math.ceil(outputChars / CHARS_PER_TOKEN);
  if (reported === undefined) return plainUsage(likelyPromptTokens, output);
  return {
    ...reported,
    inputTokens: reported.inputTokens > 0 ? reported.inputTokens : likelyPromptTokens,
    outputTokens: Math.max(reported.outputTokens, output),
  };
}
