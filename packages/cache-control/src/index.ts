// The documented surface (README "API"): the analysis, the key, the plans per upstream and the
// stripping of markers. The zod schema of Gemini's create body is at `./schemas`.
export { analyzeCache, defaultCacheTtl } from "./analyze-cache.js";
export type {
  CacheAnalysis,
  CacheBoundary,
  CacheClientFormat,
  CachedAnalysis,
  ExplicitCache,
  NoCache,
  OrdinaryCache,
} from "./cache-analysis.js";
export { type CacheKeyInput, cacheKey } from "./cache-key.js";
export { CACHE_TTL_HOURS } from "./cache-ttl-hours.js";
export {
  CHARS_PER_TOKEN,
  estimatePrefixTokens,
  MEDIA_TOKEN_ESTIMATE,
} from "./estimate-prefix-tokens.js";
export { ignoredNativeBoundaries } from "./ignored-native-boundaries.js";
export { MIN_CACHE_TOKENS, type MinTokenTable, minCacheTokens } from "./min-cache-tokens.js";
export { geminiCacheTtls, type NativeCachedContentCreate } from "./native-cached-content.js";
export { ANTHROPIC_MAX_BREAKPOINTS, planAnthropic } from "./plan-anthropic.js";
export { type GeminiCachePlan, planGemini } from "./plan-gemini.js";
export { planOpenAI, planOpenAIResponses, promptCacheKey } from "./plan-openai.js";
export { stripCacheControl } from "./strip-cache-control.js";
export {
  cacheControlDropped,
  canonicalCacheControlPaths,
  stripWireCacheControl,
} from "./strip-wire-cache-control.js";
