import type { Request } from "@interlingua/core-types";
import { creditsFor, plainUsage } from "./charge.ts";
import type { Rates } from "./price-book.ts";
import { likelyPromptTokens, maxPromptTokens, measurePrompt } from "./prompt-size.ts";

export interface HoldInput {
  readonly rates: Rates;
  readonly request: Request;
  /** The model's published maximum output per reply; undefined when the model is not known. */
  readonly maxOutputTokens: number | undefined;
  /** `billing.default_output_reserve`: the output held for an unknown model without max tokens. */
  readonly defaultOutputReserve: number;
  /** Hours a context cache created for this call would be stored (0 when none can be). */
  readonly cacheTtlHours: number;
}

export interface CallHold {
  /** Credits held: the most the call can cost (see the README's overdraft bound). */
  readonly credits: number;
  /** Prompt tokens the call probably used: charged when the upstream reports no usage. */
  readonly likelyPromptTokens: number;
  /** The upper bounds the hold was computed from, for tests and the log. */
  readonly maxPromptTokens: number;
  readonly maxOutputTokens: number;
}

/**
 * Output tokens one reply can have: the client's max tokens, capped at the model's maximum when
 * the model is known (the upstream cannot produce more); without max tokens, the model's maximum,
 * or `billing.default_output_reserve` for a model whose maximum is not known.
 */
function outputCap(
  clientMax: number | undefined,
  modelMax: number | undefined,
  defaultReserve: number,
): number {
  if (modelMax === undefined) return clientMax ?? defaultReserve;
  return Math.min(clientMax ?? modelMax, modelMax);
}

/** The highest of some rates (bigint: Math.max does not take them). */
function dearest(...rates: bigint[]): bigint {
  let top = 0n;
  for (const rate of rates) if (rate > top) top = rate;
  return top;
}

/**
 * The call's most expensive outcome. Marked prompts are held at the cache-write price: Anthropic
 * bills marked prefixes as writes, up to twice the input price.
 */
export function holdFor(input: HoldInput): CallHold {
  const { rates, request } = input;
  const size = measurePrompt(request);
  const prompt = maxPromptTokens(size);
  const output =
    outputCap(request.sampling.maxTokens, input.maxOutputTokens, input.defaultOutputReserve) *
    (request.sampling.n ?? 1);
  const held = size.cacheMarked
    ? { ...rates, input: dearest(rates.input, rates.cacheWrite, rates.cacheWrite1h) }
    : rates;
  return {
    credits: creditsFor(held, {
      usage: plainUsage(prompt, output),
      cacheStorageTokenHours: prompt * input.cacheTtlHours,
    }),
    likelyPromptTokens: likelyPromptTokens(size),
    maxPromptTokens: prompt,
    maxOutputTokens: output,
  };
}
