import { prefixHasher } from "../core/prefix-hasher.ts";
import { type CacheUsage, NO_CACHE_USAGE, type PromptCacheStore } from "../core/prompt-cache.ts";
import { CHARS_PER_TOKEN } from "../core/tokens.ts";
import { type PromptSegment, segmentLength, segmentText } from "./prompt-segments.ts";

// OpenAI's automatic prompt caching, as its guide describes it: prompts of 1024 tokens or more
// are cached without being asked; a later prompt with the same prefix reads the longest cached
// prefix, counted from 1024 tokens in steps of 128, in `prompt_tokens_details.cached_tokens`
// (part of prompt_tokens). There is no write charge and no write count.

const OPENAI_MIN_CACHE_TOKENS = 1024;
const OPENAI_CACHE_STEP_TOKENS = 128;

/**
 * How long an unused prefix stays: the default in-memory retention ("5 to 10 minutes of
 * inactivity"; the simulator takes 5), or 24 hours with `prompt_cache_retention: "24h"`.
 */
export const OPENAI_RETENTION_MS: Record<string, number> = {
  in_memory: 5 * 60_000,
  "24h": 24 * 60 * 60_000,
};

type Checkpoint = { tokens: number; key: string };

/** The key of every prefix at 1024, 1152, 1280, ... tokens that fits inside the prompt. */
function checkpoints(segments: readonly PromptSegment[], scope: string): Checkpoint[] {
  const out: Checkpoint[] = [];
  const hasher = prefixHasher(scope);
  const step = OPENAI_CACHE_STEP_TOKENS * CHARS_PER_TOKEN;
  let next = OPENAI_MIN_CACHE_TOKENS * CHARS_PER_TOKEN;
  let position = 0;
  for (const segment of segments) {
    hasher.update(`\u0000${segment.marker}\u0000`);
    const text = segmentText(segment);
    let offset = 0;
    while (offset < text.length) {
      const take = Math.min(text.length - offset, next - position);
      hasher.update(text.slice(offset, offset + take));
      offset += take;
      position += take;
      if (position === next) {
        out.push({ tokens: next / CHARS_PER_TOKEN, key: hasher.digest() });
        next += step;
      }
    }
  }
  return out;
}

/**
 * Reads the longest live cached prefix of this prompt and caches every prefix checkpoint of it
 * (refreshing the ones already there). `scope` holds the API key, the model and the
 * `prompt_cache_key`: OpenAI routes on that key together with the prefix, so requests with
 * different keys land on different machines and the simulator treats them as different caches.
 */
export function prefixCacheUsage(
  segments: readonly PromptSegment[],
  store: PromptCacheStore,
  scope: string,
  retentionMs: number,
): CacheUsage {
  let chars = 0;
  for (const segment of segments) chars += segmentLength(segment);
  if (chars < OPENAI_MIN_CACHE_TOKENS * CHARS_PER_TOKEN) return NO_CACHE_USAGE;
  const points = checkpoints(segments, scope);
  let read = 0;
  for (let i = points.length - 1; i >= 0; i--) {
    if (store.hit(points[i]!.key)) {
      read = points[i]!.tokens;
      break;
    }
  }
  for (const point of points) store.put(point.key, retentionMs);
  return { ...NO_CACHE_USAGE, readTokens: read };
}
