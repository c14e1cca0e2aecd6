import { setBounded } from "./bounded-map.ts";
import type { Turn } from "./turn.ts";

/** Prompt tokens a reply reports as read from, or written to, a provider's prompt cache. */
export type CacheUsage = {
  readTokens: number;
  write5mTokens: number;
  write1hTokens: number;
};

export const NO_CACHE_USAGE: CacheUsage = { readTokens: 0, write5mTokens: 0, write1hTokens: 0 };

/**
 * A Gemini `cachedContent` reference: its tokens are read from the cache (and are not in the
 * request's own text). Anthropic and OpenAI compute theirs against the prompt-cache store.
 */
export function explicitCacheUsage(turn: Turn): CacheUsage {
  return { ...NO_CACHE_USAGE, readTokens: turn.cachedTokens };
}

/**
 * The simulator's automatic prompt caches (Anthropic breakpoints, OpenAI prefixes): prefix key ->
 * expiry. A hit refreshes the entry for its own ttl, as both providers do. Expiry follows the
 * simulator's clock, so tests move time instead of waiting.
 */
export type PromptCacheStore = {
  /** Whether the entry lives; a live entry is refreshed. */
  hit(key: string): boolean;
  put(key: string, ttlMs: number): void;
};

type Entry = { expiresAt: number; ttlMs: number };

/** Enough for many long conversations; the oldest entries go first past it (benchmarks). */
const MAX_ENTRIES = 100_000;

export function createPromptCacheStore(now: () => number): PromptCacheStore {
  const entries = new Map<string, Entry>();
  return {
    hit(key) {
      const entry = entries.get(key);
      if (entry === undefined) return false;
      const at = now();
      if (entry.expiresAt <= at) {
        entries.delete(key);
        return false;
      }
      setBounded(entries, key, { ...entry, expiresAt: at + entry.ttlMs }, MAX_ENTRIES);
      return true;
    },
    put(key, ttlMs) {
      const previous = entries.get(key);
      // A write never shortens what an earlier, longer-lived write of the same prefix promised.
      const ttl = Math.max(ttlMs, previous?.ttlMs ?? 0);
      setBounded(entries, key, { expiresAt: now() + ttl, ttlMs: ttl }, MAX_ENTRIES);
    },
  };
}
