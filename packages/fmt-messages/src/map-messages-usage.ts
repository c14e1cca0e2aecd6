import type { Usage } from "@interlingua/core-types";
import type { MessagesDeltaUsageOut, MessagesUsageOut, MessagesUsageWire } from "./messages-api.js";

/**
 * Anthropic's tiers, and other providers' that mean the same (OpenAI's `default` is `standard`).
 * Anthropic SDKs check the enum, so any other tier is written as `standard` (and reported).
 */
const MESSAGES_TIERS: Readonly<Record<string, string>> = {
  standard: "standard",
  priority: "priority",
  batch: "batch",
  default: "standard",
};

/** The tier Anthropic reports for an ordinary request: written when the upstream named none. */
export const MESSAGES_DEFAULT_TIER = "standard";
/** What Anthropic writes as `inference_geo` when no geography applies. */
export const MESSAGES_NO_INFERENCE_GEO = "not_available";

/** A canonical tier as Anthropic's usage writes it, or undefined when it has no equivalent. */
export const messagesServiceTier = (tier: string | undefined): string | undefined =>
  tier === undefined
    ? MESSAGES_DEFAULT_TIER
    : Object.hasOwn(MESSAGES_TIERS, tier)
      ? MESSAGES_TIERS[tier]
      : undefined;

/** Any subset of the wire usage fields, as message_start and message_delta carry them. */
export type MessagesUsageFields = Partial<{
  [K in keyof MessagesUsageWire]: MessagesUsageWire[K];
}>;

/**
 * Anthropic usage -> canonical. Anthropic `input_tokens` EXCLUDES cache reads and cache writes,
 * while canonical `inputTokens` includes both, so the three are added; `output_tokens` already
 * includes thinking tokens, as canonical `outputTokens` does.
 */
export function parseMessagesUsage(usage: MessagesUsageFields): Usage {
  const read = usage.cache_read_input_tokens ?? 0;
  const write = usage.cache_creation_input_tokens ?? 0;
  const out: Usage = {
    inputTokens: (usage.input_tokens ?? 0) + read + write,
    outputTokens: usage.output_tokens ?? 0,
    cachedInputTokens: read,
    cacheWriteTokens: write,
    thinkingTokens: usage.output_tokens_details?.thinking_tokens ?? 0,
  };
  const split = usage.cache_creation;
  if (split) {
    out.cacheWrite5mTokens = split.ephemeral_5m_input_tokens ?? 0;
    out.cacheWrite1hTokens = split.ephemeral_1h_input_tokens ?? 0;
  }
  if (typeof usage.service_tier === "string") out.serviceTier = usage.service_tier;
  if (typeof usage.inference_geo === "string") {
    out.providerExtras = { anthropic: { inferenceGeo: usage.inference_geo } };
  }
  return out;
}

/**
 * Canonical usage -> the full Anthropic usage object of docs/api-reference.md's result table. Cache reads and
 * writes are taken back out of `input_tokens`. Without a ttl split every cache write is reported
 * as 5-minute, the default ttl. `output_tokens_details` only appears when thinking was counted.
 * `service_tier` and `inference_geo` are always strings, as Anthropic writes them: `standard` and
 * `not_available` when the upstream said nothing; `warn` hears of a tier written as `standard`.
 */
export function renderMessagesUsage(
  usage: Usage,
  warn?: (feature: string, message: string) => void,
): MessagesUsageOut {
  const tier = messagesServiceTier(usage.serviceTier);
  if (tier === undefined) {
    warn?.(
      "usage.serviceTier",
      `service tier "${usage.serviceTier}" has no Anthropic equivalent; ${MESSAGES_DEFAULT_TIER} is written`,
    );
  }
  const write = usage.cacheWriteTokens;
  const oneHour = usage.cacheWrite1hTokens ?? 0;
  const out: MessagesUsageOut = {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens - write),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: write,
    cache_read_input_tokens: usage.cachedInputTokens,
    cache_creation: {
      ephemeral_5m_input_tokens: usage.cacheWrite5mTokens ?? Math.max(0, write - oneHour),
      ephemeral_1h_input_tokens: oneHour,
    },
    service_tier: tier ?? MESSAGES_DEFAULT_TIER,
    inference_geo: usage.providerExtras?.anthropic?.inferenceGeo ?? MESSAGES_NO_INFERENCE_GEO,
  };
  if (usage.thinkingTokens > 0) {
    out.output_tokens_details = { thinking_tokens: usage.thinkingTokens };
  }
  return out;
}

/**
 * Canonical usage -> message_delta's usage: the counts of `renderMessagesUsage` and nothing else.
 * The tier, geo and cache ttl split have their place in message_start only.
 */
export function renderMessagesDeltaUsage(usage: Usage): MessagesDeltaUsageOut {
  const full = renderMessagesUsage(usage);
  const out: MessagesDeltaUsageOut = {
    input_tokens: full.input_tokens,
    output_tokens: full.output_tokens,
    cache_creation_input_tokens: full.cache_creation_input_tokens,
    cache_read_input_tokens: full.cache_read_input_tokens,
  };
  if (full.output_tokens_details !== undefined) {
    out.output_tokens_details = full.output_tokens_details;
  }
  return out;
}
