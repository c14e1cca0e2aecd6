import type { Request } from "@interlingua/core-types";
import { stripCacheControl } from "./strip-cache-control.js";

/** Prefix of every derived prompt_cache_key, so they are recognisable in upstream logs. */
const keyPrefix = "il-";
/** 32 hex digits (128 bits) are plenty to keep prefixes apart and keep the field short. */
const keyDigits = 32;

/** The `prompt_cache_key` the gateway sends for a cache key. */
export const promptCacheKey = (key: string): string => keyPrefix + key.slice(0, keyDigits);

/**
 * The request for an OpenAI upstream: it caches prefixes by itself, so the boundaries are removed
 * and `prompt_cache_key` (written back verbatim by the chat renderer from `extras.chat`) routes
 * requests with the same prefix to the same cache. Never mutates.
 */
export function planOpenAI(request: Request, key: string): Request {
  const out = stripCacheControl(request);
  return {
    ...out,
    extras: {
      ...out.extras,
      chat: { ...out.extras?.chat, prompt_cache_key: promptCacheKey(key) },
    },
  };
}

/**
 * The request for an OpenAI Responses upstream: as `planOpenAI`, with `prompt_cache_key` a field
 * of the Responses body (written back from `extras.responses`). Never mutates.
 */
export function planOpenAIResponses(request: Request, key: string): Request {
  const out = stripCacheControl(request);
  return {
    ...out,
    extras: {
      ...out.extras,
      responses: { ...out.extras?.["responses"], prompt_cache_key: promptCacheKey(key) },
    },
  };
}
