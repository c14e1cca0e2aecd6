import type { ProtocolTokenCount } from "@interlingua/core-types";

/**
 * Fields of a Messages request that say nothing of the prompt: Anthropic's `count_tokens` takes
 * the request without them (and refuses `max_tokens`). Other fields, betas included, go as sent.
 */
const GENERATION_ONLY = new Set([
  "max_tokens",
  "stream",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "metadata",
  "service_tier",
  "container",
  "inference_geo",
]);

/** Stands in for the `max_tokens` a count body has no use for (the codec requires one). */
const COUNT_MAX_TOKENS = 1;

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** Anthropic's `POST /v1/messages/count_tokens`: a Messages request without `max_tokens`, answered `{input_tokens}`. */
export const messagesTokenCount: ProtocolTokenCount = {
  path: () => "/v1/messages/count_tokens",
  generation: (count) => ({ ...count, max_tokens: COUNT_MAX_TOKENS }),
  request: (generation, model) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(generation)) {
      if (!GENERATION_ONLY.has(key)) out[key] = value;
    }
    out["model"] = model;
    return out;
  },
  read: (reply) => {
    const tokens = (reply as { input_tokens?: unknown } | null)?.input_tokens;
    return typeof reply === "object" && isCount(tokens) ? tokens : undefined;
  },
  reply: (tokens) => ({ input_tokens: tokens }),
  modelOptional: false,
};
