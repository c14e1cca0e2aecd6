import { modelCatalogue, type Usage } from "@interlingua/core-types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { billingSchema } from "../config/config-schema.ts";
import { creditsFor, estimateTextCredits } from "./charge.ts";
import { DEFAULT_PRICES } from "./default-prices.ts";
import { toBillingUnit } from "./money.ts";
import { PriceBook } from "./price-book.ts";

const billing = billingSchema.parse({});
const book = new PriceBook(billing, {});
const usage = (u: Partial<Usage>): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
  ...u,
});

describe("prices", () => {
  it("has a default price for every model of SPEC.md, and aliases resolve to their model", () => {
    for (const model of modelCatalogue) expect(DEFAULT_PRICES[model.id], model.id).toBeDefined();
    expect(book.rates("vidV3.1-fast-ext")).toEqual(book.rates("vidV3.1-fast"));
    expect(book.rates("no-such-model")).toBeUndefined();
  });

  it("lets the config override one key of a model and keep the others", () => {
    const custom = new PriceBook(billing, { "txtA-5": { output: 20 } });
    const base = book.rates("txtA-5");
    expect(custom.rates("txtA-5")).toEqual({ ...base, output: (base?.output ?? 0n) * 2n });
  });
});

describe("creditsFor", () => {
  const rates = book.ratesOrFree("txtA-5"); // 1.25 / 10 / 0.125 USD per 1M, 500000 credits per USD

  it("charges 1M plain input tokens at the input price, in whole credits", () => {
    expect(creditsFor(rates, { usage: usage({ inputTokens: 1_000_000 }) })).toBe(625_000);
    expect(creditsFor(rates, { usage: usage({ outputTokens: 1_000_000 }) })).toBe(5_000_000);
  });

  it("charges cached input at the cache-read price and never twice (cached is inside input)", () => {
    const all = creditsFor(rates, {
      usage: usage({ inputTokens: 1_000_000, cachedInputTokens: 1_000_000 }),
    });
    expect(all).toBe(62_500);
  });

  it("charges Anthropic 1h cache writes at their own price", () => {
    const sonnet = book.ratesOrFree("txtB-sonnet-4-6"); // 3 USD input: 5m write 3.75, 1h write 6
    const written = usage({
      inputTokens: 2_000_000,
      cacheWriteTokens: 2_000_000,
      cacheWrite1hTokens: 1_000_000,
    });
    expect(creditsFor(sonnet, { usage: written })).toBe(1_875_000 + 3_000_000);
  });

  it("rounds a call up once: one token of a cheap model still costs a credit", () => {
    expect(creditsFor(rates, { usage: usage({ inputTokens: 1 }) })).toBe(1);
    expect(creditsFor(rates, { usage: usage({}) })).toBe(0);
  });

  it("is additive up to the single rounding of each call", () => {
    fc.assert(
      fc.property(
        fc.nat(10_000_000),
        fc.nat(10_000_000),
        fc.nat(10_000_000),
        (input, output, cachedShare) => {
          const cached = Math.min(input, cachedShare);
          const whole = creditsFor(rates, {
            usage: usage({ inputTokens: input, outputTokens: output, cachedInputTokens: cached }),
          });
          const parts =
            creditsFor(rates, { usage: usage({ inputTokens: input - cached }) }) +
            creditsFor(rates, {
              usage: usage({ inputTokens: cached, cachedInputTokens: cached }),
            }) +
            creditsFor(rates, { usage: usage({ outputTokens: output }) });
          expect(whole).toBeLessThanOrEqual(parts);
          expect(parts - whole).toBeLessThanOrEqual(2);
        },
      ),
    );
  });

  it("prices media by request, second, character and minute", () => {
    expect(creditsFor(book.ratesOrFree("txtA-image-2"), { requests: 2 })).toBe(40_000);
    expect(creditsFor(book.ratesOrFree("vidV3.1-fast"), { seconds: 8 })).toBe(600_000);
    expect(creditsFor(book.ratesOrFree("txtA-4o-mini-tts"), { characters: 4096 })).toBe(30_720);
    expect(creditsFor(book.ratesOrFree("asrW-1"), { minutes: 10 })).toBe(30_000);
  });
});

describe("estimateTextCredits", () => {
  const rates = book.ratesOrFree("txtA-5");
  const request = {
    model: "txtA-5",
    system: [{ type: "text" as const, text: "x".repeat(400) }],
    messages: [
      { role: "user" as const, parts: [{ type: "text" as const, text: "y".repeat(3600) }] },
    ],
    sampling: { maxTokens: 1000, n: 2 },
    tools: [],
    stream: false,
  };

  it("holds the prompt estimate plus max tokens per choice", () => {
    const estimate = estimateTextCredits(rates, request, 4096);
    // 4000 chars = 1000 prompt tokens; 2 x 1000 output tokens.
    expect(estimate).toEqual({
      promptCredits: creditsFor(rates, { usage: usage({ inputTokens: 1000 }) }),
      credits: creditsFor(rates, { usage: usage({ inputTokens: 1000, outputTokens: 2000 }) }),
    });
  });

  it("uses the default output reserve when the request names no max tokens", () => {
    const estimate = estimateTextCredits(rates, { ...request, sampling: {} }, 4096);
    expect(estimate.credits).toBe(
      creditsFor(rates, { usage: usage({ inputTokens: 1000, outputTokens: 4096 }) }),
    );
  });
});

describe("toBillingUnit", () => {
  it("shows USD to six decimals and credits as they are", () => {
    expect(toBillingUnit(625_000, billing)).toBe(1.25);
    expect(toBillingUnit(1, billing)).toBe(0.000002);
    expect(toBillingUnit(150_000, billing)).toBe(0.3);
    expect(toBillingUnit(7, { ...billing, unit: "Credits" })).toBe(7);
  });
});
