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

/**
 * `n` units at `rate`, scaled. Most of a call's quantities are zero (no cache, no media): those
 * cost no BigInt work, since this runs twice per call on the request path.
 */
const term = (n: number | undefined, rate: bigint): bigint =>
  n === undefined || !Number.isFinite(n) || n <= 0 || rate === 0n
    ? 0n
    : BigInt(Math.round(n * MICRO)) * rate;

/** Whole credits, rounded up once: a call never costs less than what it used. */
const toCredits = (scaled: bigint): number =>
  scaled === 0n ? 0 : Number((scaled + PER_CREDIT - 1n) / PER_CREDIT);

/**
 * The charge of a call. Canonical usage counts cache reads and writes inside `inputTokens`
 * (core-types' usage semantics), so only the rest of the input is billed at the input price.
 */
export function creditsFor(rates: Rates, consumed: Consumption): number {
  return wholeUnitCredits(rates, consumed) ?? creditsByBigInt(rates, consumed);
}

/** The general computation, in BigInt (exported for the test that checks the fast path). */
export function creditsByBigInt(rates: Rates, consumed: Consumption): number {
  let scaled = 0n;
  const usage = consumed.usage;
  if (usage !== undefined) {
    const write1h = usage.cacheWrite1hTokens ?? 0;
    const write5m = Math.max(0, usage.cacheWriteTokens - write1h);
    const plain = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
    scaled += term(plain, rates.input) + term(usage.outputTokens, rates.output);
    if (usage.cachedInputTokens > 0) scaled += term(usage.cachedInputTokens, rates.cachedInput);
    if (usage.cacheWriteTokens > 0) {
      scaled += term(write5m, rates.cacheWrite) + term(write1h, rates.cacheWrite1h);
    }
  }
  if (consumed.requests !== undefined) scaled += term(consumed.requests, rates.perRequest);
  if (consumed.seconds !== undefined) scaled += term(consumed.seconds, rates.perSecond);
  if (consumed.characters !== undefined) {
    scaled += term(consumed.characters, rates.perMillionCharacters);
  }
  if (consumed.minutes !== undefined) scaled += term(consumed.minutes, rates.perMinute);
  if (consumed.cacheStorageTokenHours) {
    scaled += term(consumed.cacheStorageTokenHours, rates.cacheStoragePerHour);
  }
  return toCredits(scaled);
}

// Fast path: BigInt arithmetic was a visible part of accounting's cost, and whole-unit charges are
// exact as safe Number integers (each step checked). Anything else answers undefined and takes the
// BigInt path; both give the same credits.

const SAFE = Number.MAX_SAFE_INTEGER;
/** A whole quantity above this would already lose precision in the BigInt path's millionths. */
const MAX_WHOLE = Math.floor(SAFE / MICRO);

interface SplitRate {
  readonly hi: number;
  readonly lo: number;
}
type SplitRates = Readonly<Record<keyof Rates, SplitRate>>;

const splits = new WeakMap<Rates, SplitRates | null>();

function splitOf(rates: Rates): SplitRates | null {
  let split = splits.get(rates);
  if (split === undefined) {
    const parts: Partial<Record<keyof Rates, SplitRate>> = {};
    let safe = true;
    for (const key of Object.keys(rates) as (keyof Rates)[]) {
      const hi = rates[key] / 1_000_000_000n;
      safe &&= hi <= BigInt(SAFE);
      parts[key] = { hi: Number(hi), lo: Number(rates[key] % 1_000_000_000n) };
    }
    split = safe ? (parts as SplitRates) : null;
    splits.set(rates, split);
  }
  return split;
}

/** Running sums of q x hi and q x lo; `ok` turns false once a term is not whole or not safe. */
class WholeSum {
  high = 0;
  low = 0;
  ok = true;

  add(quantity: number | undefined, rate: SplitRate): void {
    if (quantity === undefined || !(quantity > 0) || (rate.hi === 0 && rate.lo === 0)) return;
    if (!Number.isInteger(quantity) || quantity > MAX_WHOLE) {
      this.ok = false;
      return;
    }
    this.high += quantity * rate.hi;
    this.low += quantity * rate.lo;
    if (!(this.high <= SAFE && this.low <= SAFE)) this.ok = false;
  }
}

function wholeUnitCredits(rates: Rates, consumed: Consumption): number | undefined {
  const split = splitOf(rates);
  if (split === null) return undefined;
  const sum = new WholeSum();
  const usage = consumed.usage;
  if (usage !== undefined) {
    const write1h = usage.cacheWrite1hTokens ?? 0;
    sum.add(
      Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens),
      split.input,
    );
    sum.add(usage.outputTokens, split.output);
    sum.add(usage.cachedInputTokens, split.cachedInput);
    // As in the BigInt path: cache writes count only when the usage reports some.
    if (usage.cacheWriteTokens > 0) {
      sum.add(Math.max(0, usage.cacheWriteTokens - write1h), split.cacheWrite);
      sum.add(write1h, split.cacheWrite1h);
    }
  }
  sum.add(consumed.requests, split.perRequest);
  sum.add(consumed.seconds, split.perSecond);
  sum.add(consumed.characters, split.perMillionCharacters);
  sum.add(consumed.minutes, split.perMinute);
  sum.add(consumed.cacheStorageTokenHours, split.cacheStoragePerHour);
  if (!sum.ok) return undefined;
  // ceil((1e9 x high + low) / 1e15), as (high = a x 1e6 + b): a + ceil((b x 1e9 + low) / 1e15).
  const b = sum.high % MICRO;
  const a = (sum.high - b) / MICRO;
  const rest = b * 1e9 + sum.low;
  if (!(rest <= SAFE)) return undefined;
  const below = rest % 1e15;
  return a + (rest - below) / 1e15 + (below > 0 ? 1 : 0);
}

/** Usage with only input and output tokens, for estimates. */
export const plainUsage = (inputTokens: number, outputTokens: number): Usage => ({
  inputTokens,
  outputTokens,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
});
