import {
  type CachePlan,
  type CachePlanInput,
  promptCacheKey,
  type Request,
  stripCacheControl,
} from "@interlingua/core-types";

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

/** `Protocol.cachePlan` of the OpenAI chat protocol. */
export const chatCachePlan = ({ request, key }: CachePlanInput): CachePlan => ({
  kind: "inline",
  mode: "openai-key",
  request: planOpenAI(request, key),
});
