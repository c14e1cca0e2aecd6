import type { UpstreamProtocol } from "@interlingua/core-types";

interface MinTokenRule {
  /** Matched against the upstream model id. */
  pattern: RegExp;
  tokens: number;
}

export interface MinTokenTable {
  /** The first matching rule wins; otherwise `default`. */
  rules: readonly MinTokenRule[];
  default: number;
}

/**
 * The smallest prefix each upstream caches, by upstream model id (checked against the providers'
 * caching docs): Anthropic 1024, with 4096 for Opus 4.5/4.6 and Haiku 4.5 and 2048 for Sonnet 4.6
 * and the Haiku 3 models; Gemini 1024 for flash-class and 4096 for pro-class models; OpenAI 1024.
 */
export const MIN_CACHE_TOKENS: Readonly<Record<UpstreamProtocol, MinTokenTable>> = {
  anthropic: {
    rules: [
      { pattern: /opus-4-[56]|haiku-4-5/, tokens: 4096 },
      { pattern: /sonnet-4-6|haiku-3/, tokens: 2048 },
    ],
    default: 1024,
  },
  gemini: { rules: [{ pattern: /(^|[-/])pro([-.]|$)/, tokens: 4096 }], default: 1024 },
  openai: { rules: [], default: 1024 },
  // The same models and the same prefix cache, reached through the Responses API.
  "openai-responses": { rules: [], default: 1024 },
};

/** The minimum cacheable prefix, in tokens, for one upstream model. */
export function minCacheTokens(protocol: UpstreamProtocol, upstreamModel: string): number {
  const table = MIN_CACHE_TOKENS[protocol];
  return table.rules.find((rule) => rule.pattern.test(upstreamModel))?.tokens ?? table.default;
}
