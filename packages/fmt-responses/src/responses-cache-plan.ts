import {
  type CachePlan,
  type CachePlanInput,
  type Request,
  withPromptCacheKey,
} from "@interlingua/core-types";

/**
 * The request for an OpenAI Responses upstream: boundaries removed, `prompt_cache_key` a field of
 * the Responses body (from `extras.responses`).
 */
export const planOpenAIResponses = (request: Request, key: string): Request =>
  withPromptCacheKey(request, key, "responses");

/** `Protocol.cachePlan` of the Responses protocol. */
export const responsesCachePlan = ({ request, key }: CachePlanInput): CachePlan => ({
  kind: "inline",
  mode: "openai-key",
  request: planOpenAIResponses(request, key),
});
