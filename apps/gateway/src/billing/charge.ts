import type { Request, Usage } from "@interlingua/core-types";
import { NANO_PER_CREDIT_MILLION, type Rates } from "./price-book.ts";

/** What a call consumed, in the units prices are given in. */
export interface Consumption {
  readonly usage?: Usage | undefined;
  readonly requests?: number;
  readonly seconds?: number;
  readonly characters?: number;
  readonly minutes?: number;
  /** Token-hours of a cache the gateway created (tokens x ttl hours), charged once. */
  readonly cacheStorageTokenHours?: number;
}

const big = (n: number | undefined): bigint => BigInt(Math.max(0, Math.ceil(n ?? 0)));

/** Whole credits, rounded up once: a call never costs less than what it used. */
const toCredits = (nano: bigint): number =>
  Number((nano + NANO_PER_CREDIT_MILLION - 1n) / NANO_PER_CREDIT_MILLION);

/**
 * The charge of a call. Canonical usage counts cache reads and writes inside `inputTokens`
 * (core-types' usage semantics), so only the rest of the input is billed at the input price.
 */
export function creditsFor(rates: Rates, consumed: Consumption): number {
  let nano = 0n;
  const usage = consumed.usage;
  if (usage !== undefined) {
    const write1h = usage.cacheWrite1hTokens ?? 0;
    const write5m = Math.max(0, usage.cacheWriteTokens - write1h);
    const plain = Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens);
    nano +=
      big(plain) * rates.input +
      big(usage.cachedInputTokens) * rates.cachedInput +
      big(write5m) * rates.cacheWrite +
      big(write1h) * rates.cacheWrite1h +
      big(usage.outputTokens) * rates.output;
  }
  nano +=
    big(consumed.requests) * rates.perRequest +
    big(consumed.seconds) * rates.perSecond +
    big(consumed.characters) * rates.perMillionCharacters +
    big(consumed.minutes) * rates.perMinute +
    big(consumed.cacheStorageTokenHours) * rates.cacheStoragePerHour;
  return toCredits(nano);
}

// An upper-side guess of prompt tokens without a tokenizer: four characters a token, and a flat
// amount per image or file (a 1024x1024 image is about 1k tokens on every provider).
const CHARS_PER_TOKEN = 4;
const MEDIA_TOKENS = 1_000;

function promptTokenEstimate(request: Request): number {
  let chars = 0;
  let media = 0;
  for (const part of request.system) chars += part.text.length;
  for (const message of request.messages) {
    for (const part of message.parts) {
      switch (part.type) {
        case "text":
        case "thinking":
          chars += part.text.length;
          break;
        case "tool-call":
          chars += part.name.length + part.arguments.length;
          break;
        case "tool-result":
          for (const item of part.content) {
            if (item.type === "text") chars += item.text.length;
            else media++;
          }
          break;
        case "image":
        case "file":
          media++;
          break;
        default:
      }
    }
  }
  for (const tool of request.tools) chars += JSON.stringify(tool).length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + media * MEDIA_TOKENS;
}

export interface TextEstimate {
  /** The hold: prompt estimate plus the most the call may generate. */
  readonly credits: number;
  /** The prompt estimate alone: the charge of a stream whose usage never arrived. */
  readonly promptCredits: number;
}

const usageOf = (inputTokens: number, outputTokens: number): Usage => ({
  inputTokens,
  outputTokens,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
});

/**
 * The amount held before a text call: its prompt estimate plus the most it may generate (its
 * max tokens, or `defaultOutput`) per choice, at full input and output prices.
 */
export function estimateTextCredits(
  rates: Rates,
  request: Request,
  defaultOutput: number,
): TextEstimate {
  const prompt = promptTokenEstimate(request);
  const output = (request.sampling.maxTokens ?? defaultOutput) * (request.sampling.n ?? 1);
  return {
    credits: creditsFor(rates, { usage: usageOf(prompt, output) }),
    promptCredits: creditsFor(rates, { usage: usageOf(prompt, 0) }),
  };
}
