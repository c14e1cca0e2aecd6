// Apart from usage.ts, which holds zod schemas: the codecs call these helpers, and a bundler drops
// a module none of whose exports is used, but never a top-level schema call in one it keeps.
import type { Usage } from "./usage.js";

export const emptyUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
});

/** The usage of a reply that reported none: zero counts marked `known: false`. */
export const unknownUsage = (): Usage => ({ ...emptyUsage(), known: false });

/** Whether the upstream reported this usage (false: its zero counts mean unknown). */
export const isUsageKnown = (usage: Usage): boolean => usage.known !== false;
