import type { Usage } from "@interlingua/core-types";
import { NANO_PER_CREDIT_MILLION, type Rates } from "./price-book.ts";

/** What a call consumed, in the units prices are given in. */
export interface Consumption {
  readonly usage?: Usage | undefined;
  readonly requests?: number;
  /** May be fractional (a 7.5 s video, a 0.25 min recording): fractions are billed exactly. */
  readonly seconds?: number;
  readonly characters?: number;
  readonly minutes?: number;
  /** Token-hours of a cache the gateway created (tokens x ttl hours), charged once. */
  readonly cacheStorageTokenHours?: number;
}

// Every quantity is counted in millionths of its unit, so a fraction of a second, a minute or a
// token-hour is billed as it is (to a millionth) instead of being rounded up on its own; the call
// is rounded once, to whole credits, at the very end.
const MICRO = 1_000_000;
const PER_CREDIT = NANO_PER_CREDIT_MILLION * BigInt(MICRO);

const micro = (n: number | undefined): bigint =>
  n === undefined || !Number.isFinite(n) || n <= 0 ? 0n : BigInt(Math.round(n * MICRO));

/** Whole credits, rounded up once: a call never costs less than what it used. */
const toCredits = (scaled: bigint): number => Number((scaled + PER_CREDIT - 1n) / PER_CREDIT);

/**
 * The charge of a call. Canonical usage counts cache reads and writes inside `inputTokens`
 * (core-types' usage semantics), so only the rest of the input is billed at the input price.
 */
export function creditsFor(rates: Rates, consumed: Consumption): number {
  let scaled = 0n;
  const usage = consumed.usage;
  if (usage !== undefined) {
    const write1h = usage.cacheWrite1hTokens ?? 0;
    const write5m = Math.max(0, usage.cacheWriteTokens - write1h);
    const plain = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
    scaled +=
      micro(plain) * rates.input +
      micro(usage.cachedInputTokens) * rates.cachedInput +
      micro(write5m) * rates.cacheWrite +
      micro(write1h) * rates.cacheWrite1h +
      micro(usage.outputTokens) * rates.output;
  }
  scaled +=
    micro(consumed.requests) * rates.perRequest +
    micro(consumed.seconds) * rates.perSecond +
    micro(consumed.characters) * rates.perMillionCharacters +
    micro(consumed.minutes) * rates.perMinute +
    micro(consumed.cacheStorageTokenHours) * rates.cacheStoragePerHour;
  return toCredits(scaled);
}

/** Usage with only input and output tokens, for estimates. */
export const plainUsage = (inputTokens: number, outputTokens: number): Usage => ({
  inputTokens,
  outputTokens,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
});
