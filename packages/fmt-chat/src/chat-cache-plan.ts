import {
  type CachePlan,
  type CachePlanInput,
  type Request,
  withPromptCacheKey,
} from "@interlingua/core-types";

/** The request for an OpenAI upstream: boundaries removed, `prompt_cache_key` in `extras.chat`. */
export const planOpenAI = (request: Request, key: string): Request =>
  withPromptCacheKey(request, key, "chat");

/** `Protocol.cachePlan` of the OpenAI chat protocol. */
export const chatCachePlan = ({ request, key }: CachePlanInput): CachePlan => ({
  kind: "inline",
  mode: "openai-key",
  request: planOpenAI(request, key),
});
