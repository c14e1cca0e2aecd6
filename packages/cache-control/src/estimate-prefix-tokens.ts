import type { Part, Request, ToolResultContent } from "@interlingua/core-types";
import type { CachedAnalysis } from "./cache-analysis.js";

/** The usual rule of thumb for English text and code: about four characters per token. */
export const CHARS_PER_TOKEN = 4;
/**
 * Tokens counted for one image or file. Deliberately low (Gemini bills a small image at 258) so
 * that the estimate errs towards trying a cache rather than skipping one that would have worked.
 */
export const MEDIA_TOKEN_ESTIMATE = 258;

interface Tally {
  chars: number;
  media: number;
}

function tallyBlock(block: ToolResultContent, tally: Tally): void {
  if (block.type === "text") tally.chars += block.text.length;
  else tally.media += 1;
}

/** Character and media counts per part kind; opaque signatures and ids cost no prompt tokens. */
const partTally: { [K in Part["type"]]: (part: Extract<Part, { type: K }>, tally: Tally) => void } =
  {
    text: (part, tally) => {
      tally.chars += part.text.length;
    },
    thinking: (part, tally) => {
      tally.chars += part.text.length;
    },
    "redacted-thinking": (part, tally) => {
      tally.chars += part.data.length;
    },
    "tool-call": (part, tally) => {
      tally.chars += part.name.length + part.arguments.length;
    },
    "tool-result": (part, tally) => {
      for (const block of part.content) tallyBlock(block, tally);
    },
    image: (_part, tally) => {
      tally.media += 1;
    },
    file: (_part, tally) => {
      tally.media += 1;
    },
  };

/**
 * A rough token count of what the cache would hold (system, tool definitions, prefix messages),
 * for skipping cache creation when the prefix is surely below the upstream's minimum (rule 7).
 */
export function estimatePrefixTokens(request: Request, analysis: CachedAnalysis): number {
  const tally: Tally = { chars: 0, media: 0 };
  for (const part of request.system) tally.chars += part.text.length;
  for (const tool of request.tools) tally.chars += JSON.stringify(tool).length;
  for (const message of request.messages.slice(0, analysis.prefixMessages)) {
    for (const part of message.parts as Part[]) {
      (partTally[part.type] as (part: Part, tally: Tally) => void)(part, tally);
    }
  }
  return Math.ceil(tally.chars / CHARS_PER_TOKEN) + tally.media * MEDIA_TOKEN_ESTIMATE;
}
