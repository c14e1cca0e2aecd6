import type { Warning } from "@interlingua/core-types";

/**
 * Other providers' tiers as chat writes them: Anthropic's and Gemini's `standard` is OpenAI's
 * `default`; `batch` and `unspecified` have no chat equivalent (left out, warned). Any other value
 * passes as it is: OpenAI-compatible upstreams have their own (Groq's `on_demand`).
 */
const FOREIGN_TIERS: Readonly<Record<string, string | undefined>> = {
  standard: "default",
  batch: undefined,
  unspecified: undefined,
};

/** The `service_tier` chat may carry for a canonical tier, or undefined (warned). */
export function chatServiceTier(
  tier: string | undefined,
  warn: (warning: Warning) => void,
): string | undefined {
  if (tier === undefined || !Object.hasOwn(FOREIGN_TIERS, tier)) return tier;
  const out = FOREIGN_TIERS[tier];
  if (out === undefined) {
    warn({
      type: "dropped",
      feature: "usage.serviceTier",
      message: `service tier "${tier}" has no OpenAI equivalent`,
    });
  }
  return out;
}
