import {
  type CachePlan,
  type CachePlanInput,
  promptCacheKey,
  type Request,
  stripCacheControl,
} from "@interlingua/core-types";

/**
 * The request for an OpenAI Responses upstream: boundaries removed, and `prompt_cache_key` (a
 * field of the Responses body, written back from `extras.responses`) routes requests with the
 * same prefix to the same cache. Never mutates.
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

/** `Protocol.cachePlan` of the Responses protocol. */
export const responsesCachePlan = ({ request, key }: CachePlanInput): CachePlan => ({
  kind: "inline",
  mode: "openai-key",
  request: planOpenAIResponses(request, key),
});
