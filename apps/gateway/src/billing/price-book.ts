import { canonicalModelId } from "../catalogue/model-catalogue.ts";
import type { BillingConfig, ModelPrice } from "../config/config-schema.ts";
import { DEFAULT_PRICES } from "./default-prices.ts";

/**
 * A model's prices as integer rates: nano-credits per one million units (tokens, requests,
 * seconds, characters, minutes). Every charge is a BigInt sum of count x rate, turned into whole
 * credits once per call, so money is never a float sum.
 */
export interface Rates {
  readonly input: bigint;
  readonly output: bigint;
  readonly cachedInput: bigint;
  readonly cacheWrite: bigint;
  readonly cacheWrite1h: bigint;
  readonly cacheStoragePerHour: bigint;
  readonly perRequest: bigint;
  readonly perSecond: bigint;
  readonly perMillionCharacters: bigint;
  readonly perMinute: bigint;
}

/** 1e9 nano-credits per credit, rates per 1e6 units. */
export const NANO_PER_CREDIT_MILLION = 1_000_000_000_000_000n;

const ZERO_RATES: Rates = {
  input: 0n,
  output: 0n,
  cachedInput: 0n,
  cacheWrite: 0n,
  cacheWrite1h: 0n,
  cacheStoragePerHour: 0n,
  perRequest: 0n,
  perSecond: 0n,
  perMillionCharacters: 0n,
  perMinute: 0n,
};

/** Keys of a pricing entry that are model data, not prices. */
const NOT_PRICES = new Set<string>(["max_output_tokens"]);

export class PriceBook {
  readonly #rates = new Map<string, Rates>();
  readonly #maxOutput = new Map<string, number>();
  readonly #creditsPerUsd: number;

  constructor(billing: BillingConfig, overrides: Readonly<Record<string, ModelPrice>>) {
    this.#creditsPerUsd = billing.credits_per_usd;
    const ids = new Set([...Object.keys(DEFAULT_PRICES), ...Object.keys(overrides)]);
    for (const id of ids) {
      const entry: ModelPrice = { ...DEFAULT_PRICES[id], ...overrides[id] };
      if (entry.max_output_tokens !== undefined) this.#maxOutput.set(id, entry.max_output_tokens);
      // An entry that only sets the maximum output still leaves the model unpriced.
      if (Object.keys(entry).some((key) => !NOT_PRICES.has(key))) {
        this.#rates.set(id, this.#compile(entry));
      }
    }
  }

  /** Rates of a gateway model id (aliases resolve to their main id); undefined = no price known. */
  rates(model: string): Rates | undefined {
    return this.#rates.get(model) ?? this.#rates.get(canonicalModelId(model));
  }

  /** The most output tokens one reply of the model can have, when known. */
  maxOutputTokens(model: string): number | undefined {
    return this.#maxOutput.get(model) ?? this.#maxOutput.get(canonicalModelId(model));
  }

  /** Rates, or all zero for a model without a price (the start-up log names those). */
  ratesOrFree(model: string): Rates {
    return this.rates(model) ?? ZERO_RATES;
  }

  has(model: string): boolean {
    return this.rates(model) !== undefined;
  }

  /** USD per 1M units -> nano-credits per 1M units (per-unit prices are scaled by 1e6 first). */
  #rate(usd: number | undefined, perUnit = false): bigint {
    if (usd === undefined) return 0n;
    // One rounding, at start-up, of the rate itself; every sum after it is exact.
    const nano = BigInt(Math.round(usd * this.#creditsPerUsd * 1e9));
    return perUnit ? nano * 1_000_000n : nano;
  }

  #compile(price: ModelPrice): Rates {
    const cacheWrite = this.#rate(price.cache_write);
    return {
      input: this.#rate(price.input),
      output: this.#rate(price.output),
      // Without a cache-read price, cached tokens cost what any input token costs.
      cachedInput:
        price.cached_input === undefined ? this.#rate(price.input) : this.#rate(price.cached_input),
      cacheWrite,
      cacheWrite1h:
        price.cache_write_1h === undefined ? cacheWrite : this.#rate(price.cache_write_1h),
      cacheStoragePerHour: this.#rate(price.cache_storage_per_hour),
      perRequest: this.#rate(price.per_request, true),
      perSecond: this.#rate(price.per_second, true),
      perMillionCharacters: this.#rate(price.per_million_characters),
      perMinute: this.#rate(price.per_minute, true),
    };
  }
}
