import type { Turn } from "./turn.ts";

/**
 * Prompt-cache accounting for a turn. Only explicit Gemini cachedContent references are counted
 * today; automatic caching (Anthropic cache_control, OpenAI prefix caching) will be added here,
 * and every renderer already reports these fields.
 */
export type CacheUsage = {
  readTokens: number;
  write5mTokens: number;
  write1hTokens: number;
};

export function cacheUsage(turn: Turn): CacheUsage {
  return { readTokens: turn.cachedTokens, write5mTokens: 0, write1hTokens: 0 };
}
