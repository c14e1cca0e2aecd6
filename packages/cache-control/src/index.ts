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
export {
  CHARS_PER_TOKEN,
  estimatePrefixTokens,
  MEDIA_TOKEN_ESTIMATE,
} from "./estimate-prefix-tokens.js";
export { MIN_CACHE_TOKENS, type MinTokenTable, minCacheTokens } from "./min-cache-tokens.js";
export {
  geminiCacheTtls,
  type NativeCachedContentCreate,
  nativeCachedContentCreateSchema,
} from "./native-cached-content.js";
export { ANTHROPIC_MAX_BREAKPOINTS, planAnthropic } from "./plan-anthropic.js";
export { type GeminiCachePlan, planGemini } from "./plan-gemini.js";
export { planOpenAI, promptCacheKey } from "./plan-openai.js";
export { stripCacheControl } from "./strip-cache-control.js";
