import type { ProtocolTokenCount } from "@interlingua/core-types";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/**
 * Gemini's `POST /v1beta/models/{model}:countTokens`. A client sends `{contents}` or a whole
 * `{generateContentRequest}` (which wins, as Gemini reads it); the provider is always sent the
 * wrapper, the only form that carries a system instruction, tools and a cached content. The reply
 * is `{totalTokens}` (Gemini adds `cachedContentTokenCount` and per-modality details).
 */
export const nativeTokenCount: ProtocolTokenCount = {
  path: (model) => `/v1beta/models/${encodeURIComponent(model)}:countTokens`,
  generation: (count) => {
    const wrapped = count["generateContentRequest"];
    return isObject(wrapped) ? wrapped : count;
  },
  request: (generation, model) => ({
    generateContentRequest: { ...generation, model: `models/${model}` },
  }),
  read: (reply) => {
    const tokens = isObject(reply) ? reply["totalTokens"] : undefined;
    return isCount(tokens) ? tokens : undefined;
  },
  reply: (tokens) => ({ totalTokens: tokens }),
  modelOptional: false,
};
