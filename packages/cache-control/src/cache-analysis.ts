import type { CacheTtl, Warning } from "@interlingua/core-types";

/** The client formats that declare inline boundaries (docs/api-reference.md "Context cache", rule 1). */
export type CacheClientFormat = "chat" | "native";

/**
 * Where a boundary sits in the canonical request. `content` is set when the boundary is on one
 * block inside a tool result (chat tool messages carry it there). A `system` boundary exists only
 * for chat, whose system messages are ordinary messages that happen to be hoisted; it caches the
 * system text alone (no message is in the prefix).
 */
export type CacheBoundary =
  | { area: "messages"; message: number; part: number; content?: number }
  | { area: "system"; part: number };

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
