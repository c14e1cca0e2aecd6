// The documented surface (README "API"): the analysis, the key, the prefix estimate and the
// stripping of wire markers. Each provider's cache plan is its format package's
// (`Protocol.cachePlan`); the canonical `stripCacheControl` is core-types'.
export { analyzeCache, defaultCacheTtl } from "./analyze-cache.js";
export type {
  CacheAnalysis,
  CacheClientFormat,
  CachedAnalysis,
  ExplicitCache,
  NoCache,
  OrdinaryCache,
} from "./cache-analysis.js";
export { type CacheKeyInput, cacheKey } from "./cache-key.js";
export { type CacheScopeInput, cacheScope } from "./cache-scope.js";
export { CACHE_TTL_HOURS } from "./cache-ttl-hours.js";
export {
  CHARS_PER_TOKEN,
  estimatePrefixTokens,
  MEDIA_TOKEN_ESTIMATE,
} from "./estimate-prefix-tokens.js";
export { ignoredNativeBoundaries } from "./ignored-native-boundaries.js";
export { MIN_CACHE_TOKENS, type MinTokenTable, minCacheTokens } from "./min-cache-tokens.js";
export {
  cacheControlDropped,
  canonicalCacheControlPaths,
  stripWireCacheControl,
} from "./strip-wire-cache-control.js";
