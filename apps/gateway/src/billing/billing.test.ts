import type { Request, Usage } from "@interlingua/core-types";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { modelCatalogue } from "../catalogue/model-catalogue.ts";
import { billingSchema } from "../config/config-schema.ts";
import type { TokenRow } from "../storage/store.ts";
import { userBalance } from "./balances.ts";
import { holdFor } from "./call-hold.ts";
import { creditsByBigInt, creditsFor } from "./charge.ts";
import { DEFAULT_PRICES } from "./default-prices.ts";
import { deliveredUsage } from "./delivered-usage.ts";
import { toBillingUnit } from "./money.ts";
import { PriceBook, type Rates } from "./price-book.ts";
import { likelyPromptTokens, maxPromptTokens, measurePrompt, PROMPT_BOUND } from "./prompt-size.ts";
import { refuseNewToken, refuseTokenChange } from "./token-grants.ts";

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
  it("has a default price for every model of docs/api-reference.md, and aliases resolve to their model", () => {
    for (const model of modelCatalogue) expect(DEFAULT_PRICES[model.id], model.id).toBeDefined();
    // Every text model knows its maximum output: a call without max tokens holds exactly that.
    for (const model of modelCatalogue.filter((m) => m.kind === "text")) {
      expect(book.maxOutputTokens(model.id), model.id).toBeGreaterThan(0);
    }
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

  it("bills fractions of a second or minute exactly, rounding once at the end", () => {
    const video = book.ratesOrFree("vidV3.1-fast"); // 0.15 USD = 75,000 credits a second
    expect(creditsFor(video, { seconds: 7.5 })).toBe(562_500);
    expect(creditsFor(video, { seconds: 0.00001 })).toBe(1); // 0.75 credits, rounded up once
    const asr = book.ratesOrFree("asrW-1"); // 0.006 USD = 3,000 credits a minute
    expect(creditsFor(asr, { minutes: 0.25 })).toBe(750);
    expect(creditsFor(asr, { minutes: 1.0001 })).toBe(3_001); // 3000.3 -> 3001, not 2 minutes
    // Two fractions add before the one rounding: 0.3 + 0.3 credits is 1 credit, not 2.
    const tiny = new PriceBook(billing, { m: { per_second: 0.0000006, per_minute: 0.0000006 } });
    expect(creditsFor(tiny.ratesOrFree("m"), { seconds: 1, minutes: 1 })).toBe(1);
  });
});

describe("creditsFor's whole-unit fast path", () => {
  // Rates from free to absurd (beyond 2^53 nano-credits), quantities whole, fractional, huge,
  // negative or missing, usage consistent or not: always the BigInt computation's credits.
  const rate = fc.oneof(
    fc.constant(0n),
    fc.bigInt({ min: 0n, max: 10n ** 12n }),
    fc.bigInt({ min: 0n, max: 10n ** 18n }),
    fc.bigInt({ min: 0n, max: 10n ** 25n }),
  );
  const rates: fc.Arbitrary<Rates> = fc.record({
    input: rate,
    output: rate,
    cachedInput: rate,
    cacheWrite: rate,
    cacheWrite1h: rate,
    cacheStoragePerHour: rate,
    perRequest: rate,
    perSecond: rate,
    perMillionCharacters: rate,
    perMinute: rate,
  });
  const whole = fc.oneof(fc.nat(2_000), fc.nat(10_000_000), fc.integer({ min: -5, max: 5 }));
  const quantity = fc.oneof(
    whole,
    fc.double({ min: 0, max: 1e6, noNaN: true }),
    fc.constantFrom(7.5, 0.25, 2 ** 53, Number.POSITIVE_INFINITY, Number.NaN, 1e12),
  );
  const anyUsage = fc.record({
    inputTokens: quantity,
    outputTokens: quantity,
    cachedInputTokens: quantity,
    cacheWriteTokens: quantity,
    cacheWrite1hTokens: fc.option(quantity, { nil: undefined }),
    thinkingTokens: whole,
  });

  it("gives exactly the BigInt path's credits", () => {
    fc.assert(
      fc.property(
        rates,
        fc.option(anyUsage, { nil: undefined }),
        fc.record(
          {
            requests: quantity,
            seconds: quantity,
            characters: quantity,
            minutes: quantity,
            cacheStorageTokenHours: quantity,
          },
          { requiredKeys: [] },
        ),
        (r, u, other) => {
          const consumed = { ...other, ...(u === undefined ? {} : { usage: u as Usage }) };
          expect(creditsFor(r, consumed)).toBe(creditsByBigInt(r, consumed));
        },
      ),
      { numRuns: 3_000 },
    );
  });

  it("rounds up to the credit exactly at the boundaries", () => {
    // 1e15 nano-credits per million units = 1 credit per unit... and one nano-credit more.
    const r = book.ratesOrFree("txtA-5");
    const at = { ...r, input: 1_000_000_000_000_000n, output: 1_000_000_000_000_001n };
    const only = (input: number, output: number) =>
      creditsFor(at, { usage: usage({ inputTokens: input, outputTokens: output }) });
    expect(only(3, 0)).toBe(3);
    expect(only(0, 3)).toBe(4);
    expect(only(1, 1)).toBe(3);
  });
});

describe("holdFor: the most a call can cost", () => {
  const rates = book.ratesOrFree("txtA-5");
  const request: Request = {
    model: "txtA-5",
    system: [{ type: "text", text: "x".repeat(400) }],
    messages: [{ role: "user", parts: [{ type: "text", text: "y".repeat(3600) }] }],
    sampling: { maxTokens: 1000, n: 2 },
    tools: [],
    stream: false,
  };
  const GPT5_MAX = 128_000;
  const hold = (r: Request, maxOutputTokens: number | undefined = GPT5_MAX) =>
    holdFor({ rates, request: r, maxOutputTokens, defaultOutputReserve: 4096, cacheTtlHours: 0 });
  const unknownModel = (r: Request) =>
    holdFor({
      rates,
      request: r,
      maxOutputTokens: undefined,
      defaultOutputReserve: 4096,
      cacheTtlHours: 0,
    });
  // 4000 bytes of text, two turns, the per-request allowance.
  const promptBound = 4000 + 2 * PROMPT_BOUND.tokensPerTurn + PROMPT_BOUND.tokensPerRequest;

  it("holds the prompt's upper bound plus max tokens per choice", () => {
    expect(hold(request)).toEqual({
      credits: creditsFor(rates, {
        usage: usage({ inputTokens: promptBound, outputTokens: 2000 }),
      }),
      likelyPromptTokens: 1000,
      maxPromptTokens: promptBound,
      maxOutputTokens: 2000,
    });
  });

  it("without max tokens holds the model's maximum output; the default reserve only for unknown models", () => {
    const open = { ...request, sampling: {} };
    expect(hold(open).maxOutputTokens).toBe(128_000);
    expect(unknownModel(open).maxOutputTokens).toBe(4096);
    // A client asking for more than the model can produce is held at the model's maximum.
    expect(hold({ ...request, sampling: { maxTokens: 1_000_000 } }).maxOutputTokens).toBe(128_000);
    expect(unknownModel({ ...request, sampling: { maxTokens: 9_000 } }).maxOutputTokens).toBe(
      9_000,
    );
  });

  it("counts text by its UTF-8 bytes (a token never covers less than a byte), media by their maxima", () => {
    const text = "€".repeat(100); // 100 characters, 300 bytes
    const media: Request = {
      ...request,
      system: [],
      messages: [
        {
          role: "user",
          parts: [
            { type: "text", text },
            { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
            { type: "file", source: { type: "url", url: "https://example.com/a.pdf" } },
          ],
        },
      ],
    };
    const size = measurePrompt(media);
    expect(size).toMatchObject({ chars: 100, bytes: 300, turns: 1, images: 1, files: 1 });
    expect(maxPromptTokens(size)).toBe(
      300 +
        PROMPT_BOUND.tokensPerTurn +
        PROMPT_BOUND.tokensPerRequest +
        PROMPT_BOUND.tokensPerImage +
        PROMPT_BOUND.tokensPerFile,
    );
    expect(likelyPromptTokens(size)).toBe(25 + 2_000);
  });

  it("is never below what the simulator (4 characters a token) or any byte-level tokenizer bills", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string(), (a, b) => {
        const r: Request = {
          ...request,
          system: [{ type: "text", text: a }],
          messages: [{ role: "user", parts: [{ type: "text", text: b }] }],
        };
        const bound = maxPromptTokens(measurePrompt(r));
        expect(bound).toBeGreaterThanOrEqual(Buffer.byteLength(a + b, "utf8"));
        expect(bound).toBeGreaterThanOrEqual(likelyPromptTokens(measurePrompt(r)));
      }),
    );
  });

  it("tools: function tools by their JSON plus a fixed allowance, provider-run tools by their maximum", () => {
    const tools: Request["tools"] = [
      { type: "function", name: "f", parameters: { type: "object" } },
      { type: "web_search" },
    ];
    const size = measurePrompt({ ...request, tools });
    expect(size).toMatchObject({ functionTools: 1, serverTools: 1 });
    expect(maxPromptTokens(size) - maxPromptTokens(measurePrompt(request))).toBe(
      Buffer.byteLength(tools.map((t) => JSON.stringify(t)).join(""), "utf8") +
        PROMPT_BOUND.tokensPerFunctionTool +
        PROMPT_BOUND.tokensPerServerTool,
    );
  });

  it("a prompt with cache marks is held at the dearest input price (Anthropic 1h writes: 2x)", () => {
    const sonnet = book.ratesOrFree("txtB-sonnet-4-6");
    const marked: Request = {
      ...request,
      messages: [
        {
          role: "user",
          parts: [{ type: "text", text: "y".repeat(3600), cacheControl: { type: "ephemeral" } }],
        },
      ],
    };
    const held = holdFor({
      rates: sonnet,
      request: marked,
      maxOutputTokens: 64_000,
      defaultOutputReserve: 4096,
      cacheTtlHours: 0,
    });
    // 3 USD input -> 1h writes at 6 USD = 3 credits a token; output 15 USD = 7.5 credits.
    expect(held.credits).toBe(Math.ceil(promptBound * 3 + 2000 * 7.5));
  });

  it("holds a Gemini cache's storage for the whole prompt and its ttl", () => {
    const flash = book.ratesOrFree("txtC-3.6-flash"); // storage 1 USD per 1M tokens per hour
    const args = { rates: flash, request, maxOutputTokens: 65_536, defaultOutputReserve: 4096 };
    const plain = holdFor({ ...args, cacheTtlHours: 0 }).credits;
    const cached = holdFor({ ...args, cacheTtlHours: 1 }).credits;
    expect(cached - plain).toBe(Math.ceil(promptBound * 0.5));
  });
});

describe("deliveredUsage: estimates when the upstream reports none", () => {
  it("likely prompt plus the delivered text at four characters a token", () => {
    expect(deliveredUsage(undefined, 120, 401)).toEqual(
      usage({ inputTokens: 120, outputTokens: 101 }),
    );
  });

  it("keeps what a cut-off stream did report, and never lowers its output", () => {
    const early = usage({ inputTokens: 50, cachedInputTokens: 10, outputTokens: 1 });
    expect(deliveredUsage(early, 999, 80)).toEqual({ ...early, outputTokens: 20 });
    const late = usage({ inputTokens: 0, outputTokens: 300 });
    expect(deliveredUsage(late, 40, 80)).toEqual(usage({ inputTokens: 40, outputTokens: 300 }));
  });
});

describe("token grants: what a limited key may hand out", () => {
  const row = (over: Partial<TokenRow>): TokenRow => ({
    id: 1,
    keyHash: "h",
    keyHint: "sk-…",
    name: "t",
    userId: "u",
    quota: 1_000,
    used: 300,
    reserved: 100,
    unlimited: false,
    expiresAt: undefined,
    models: undefined,
    status: "active",
    source: "api",
    createdAt: 0,
    ...over,
  });
  const limited = row({}); // 600 left
  const unlimited = row({ unlimited: true });
  const other = row({ id: 2, quota: 100, used: 0, reserved: 0 }); // 100 left

  it("a limited key creates limited tokens of at most its own remaining quota", () => {
    expect(refuseNewToken(limited, { remaining: 600 })).toBeUndefined();
    expect(refuseNewToken(limited, { remaining: 601 })).toMatch(
      /more quota than it has left \(600/,
    );
    expect(refuseNewToken(limited, { remaining: 0, unlimited: true })).toMatch(/unlimited/);
  });

  it("a limited key cannot raise its own quota or flag, nor another's above its own remaining", () => {
    expect(refuseTokenChange(limited, limited, { remaining: 601 })).toMatch(/raise/);
    expect(refuseTokenChange(limited, limited, { remaining: 600 })).toBeUndefined();
    expect(refuseTokenChange(limited, limited, { remaining: 10 })).toBeUndefined();
    expect(refuseTokenChange(limited, limited, { unlimited: true })).toMatch(/unlimited/);
    expect(refuseTokenChange(limited, other, { remaining: 600 })).toBeUndefined();
    expect(refuseTokenChange(limited, other, { remaining: 601 })).toMatch(/raise/);
    // Lowering is always allowed, also from unlimited.
    const rich = row({ id: 3, quota: 10_000, used: 0, reserved: 0 });
    expect(refuseTokenChange(limited, rich, { remaining: 5_000 })).toBeUndefined();
    expect(
      refuseTokenChange(limited, unlimited, { unlimited: false, remaining: 5_000 }),
    ).toBeUndefined();
    expect(refuseTokenChange(limited, unlimited, { unlimited: true })).toBeUndefined();
  });

  it("an unlimited key manages every token of its user freely", () => {
    expect(refuseNewToken(unlimited, { unlimited: true })).toBeUndefined();
    expect(refuseNewToken(unlimited, { remaining: 10 ** 12 })).toBeUndefined();
    expect(refuseTokenChange(unlimited, limited, { unlimited: true })).toBeUndefined();
    expect(refuseTokenChange(unlimited, other, { remaining: 10 ** 12 })).toBeUndefined();
  });
});

describe("balances", () => {
  const user = { id: "u", quota: 100, used: 250, reserved: 5, unlimited: true, createdAt: 0 };

  it("an unlimited user answers -1 for both remaining fields, like an unlimited token", () => {
    expect(userBalance(user, billing)).toEqual({
      success: true,
      remain_balance: -1,
      remain_credits: -1,
      used_balance: 0.0005,
      used_credits: 250,
    });
    expect(userBalance({ ...user, unlimited: false, used: 50 }, billing)).toMatchObject({
      remain_credits: 45,
    });
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
