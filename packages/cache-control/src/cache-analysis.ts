import type { CacheBoundary, CacheTtl, Warning } from "@interlingua/core-types";

/** The client formats that declare inline boundaries (docs/api-reference.md "Context cache", rule 1). */
export type CacheClientFormat = "chat" | "native";

/** No boundary: nothing to do. */
export interface NoCache {
  mode: "none";
  warnings: Warning[];
}

/** Native only: the request names its own `cachedContent`, forwarded as is (rule 8). */
export interface ExplicitCache {
  mode: "explicit";
  cachedContent: string;
  warnings: Warning[];
}

/** A valid boundary with no live message after it: the request runs uncached (rule 2). */
export interface OrdinaryCache {
  mode: "ordinary";
  reason: "no-live-message";
  ttl: CacheTtl;
  boundary: CacheBoundary;
  warnings: Warning[];
}

/** The prefix `messages[0 .. prefixMessages - 1]` (plus system and tools) is to be cached. */
export interface CachedAnalysis {
  mode: "cached";
  ttl: CacheTtl;
  boundary: CacheBoundary;
  /** Messages in the cached prefix: `messages[0..boundary.message]` inclusive (0 for system). */
  prefixMessages: number;
  warnings: Warning[];
}

export type CacheAnalysis = NoCache | ExplicitCache | OrdinaryCache | CachedAnalysis;
