import { CACHE_TTL_HOURS, type CacheAnalysis } from "@interlingua/cache-control";
import type { Request, Usage } from "@interlingua/core-types";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { BillingConfig } from "../config/config-schema.ts";
import type { Logger } from "../log/logger.ts";
import type { RateLimiter } from "../ratelimit/rate-limiter.ts";
import type { UsageLogInput } from "../storage/store.ts";
import type { Accounting } from "./accounting.ts";
import { holdFor } from "./call-hold.ts";
import { creditsFor } from "./charge.ts";
import { deliveredUsage } from "./delivered-usage.ts";
import { toBillingUnit } from "./money.ts";
import type { PriceBook } from "./price-book.ts";
import { reserveHold } from "./reserve-hold.ts";

/** What a call's account reads of the gateway. */
export interface BillingServices {
  readonly accounting: Accounting | undefined;
  readonly limiter: Pick<RateLimiter, "recordTokens">;
  readonly prices: Pick<PriceBook, "ratesOrFree" | "maxOutputTokens">;
  readonly config: { readonly billing: BillingConfig };
  readonly log: Logger;
}

/** What a call's account reads of the client request. */
export interface BilledCall {
  readonly requestId: string;
  readonly token: AuthenticatedToken;
  readonly endpoint: { readonly name: string };
  readonly model: string;
  readonly stream: boolean;
  readonly canonical: Request;
  readonly cache: CacheAnalysis;
}

/** What the upstream delivered to the gateway (whether or not the client got it all). */
export interface Delivery {
  /** Characters of generated text, thinking and tool-call arguments the upstream sent. */
  readonly outputChars: number;
  /** The upstream's reply ended normally, so the usage it reported is final. */
  readonly complete: boolean;
}

/** How a call ended, for its charge and its usage log row. */
export interface CallEnd {
  readonly status: number;
  /** The usage the upstream reported, if any. */
  readonly usage?: Usage | undefined;
  /** Set when the upstream answered; undefined when it failed (the hold is then refunded). */
  readonly delivered?: Delivery | undefined;
  readonly channel?: string | undefined;
  readonly error?: string | undefined;
  /** A Gemini cache created for this call: its one-time storage charge (docs/api-reference.md rule 10). */
  readonly cacheStorageTokenHours?: number;
}

/** The money side of one generation call: settle or refund exactly once. */
export interface CallAccount {
  end(end: CallEnd): void;
}

/**
 * Holds the most the call may cost (a 402 is thrown when the token or user cannot cover it); `end` charges
 * exactly once, for what was delivered, or refunds. Every call leaves one usage log row.
 */
export async function openCallAccount(
  services: BillingServices,
  request: BilledCall,
  gatewayModel: string,
  started: number,
): Promise<CallAccount> {
  const accounting = services.accounting;
  // The closures below outlive the request (a stream's charge comes at its end): they keep these
  // few values, not the request, whose body would otherwise stay in memory as long.
  const { token, requestId, model, stream } = request;
  const endpoint = request.endpoint.name;
  const rateLimit = token.rateLimit;
  const recordTokens = (usage: Usage | undefined) => {
    if (usage !== undefined && rateLimit.tpm !== undefined) {
      void services.limiter.recordTokens(String(token.id), usage.inputTokens + usage.outputTokens);
    }
  };
  if (accounting === undefined) {
    return { end: (end) => recordTokens(end.usage) };
  }
  const rates = services.prices.ratesOrFree(gatewayModel);
  const estimate = holdFor({
    rates,
    request: request.canonical,
    maxOutputTokens: services.prices.maxOutputTokens(gatewayModel),
    defaultOutputReserve: services.config.billing.default_output_reserve,
    cacheTtlHours: request.cache.mode === "cached" ? CACHE_TTL_HOURS[request.cache.ttl] : 0,
  });
  const logRow = (
    end: CallEnd,
    credits: number,
    usage: Usage | undefined = end.usage,
    estimated = false,
  ): UsageLogInput => ({
    requestId,
    time: Date.now(),
    userId: token.userId,
    tokenId: token.id,
    tokenName: token.name,
    model,
    channel: end.channel,
    endpoint,
    promptTokens: usage?.inputTokens ?? 0,
    completionTokens: usage?.outputTokens ?? 0,
    cachedTokens: usage?.cachedInputTokens ?? 0,
    cacheWriteTokens: usage?.cacheWriteTokens ?? 0,
    thinkingTokens: usage?.thinkingTokens ?? 0,
    credits,
    cost: toBillingUnit(credits, services.config.billing),
    latencyMs: Math.round(performance.now() - started),
    stream,
    status: end.status,
    error: end.error,
    ...(estimated ? { estimated: true } : {}),
  });

  const held = await reserveHold(
    accounting,
    { requestId, token, amount: estimate.credits },
    (error) => logRow({ status: 402, error }, 0),
  );
  return {
    end(end) {
      const delivered = end.delivered;
      if (delivered === undefined) {
        recordTokens(end.usage);
        held.refund(logRow(end, 0));
        return;
      }
      const storage = end.cacheStorageTokenHours ?? 0;
      const reported =
        end.usage === undefined
          ? 0
          : creditsFor(rates, { usage: end.usage, cacheStorageTokenHours: storage });
      if (end.usage !== undefined && delivered.complete) {
        recordTokens(end.usage);
        held.settle(reported, logRow(end, reported));
        return;
      }
      // Delivered, but the usage is missing or not final (cut off, drained past its bound):
      // charge the estimate, never less than what was reported and never more than the hold,
      // which is by construction the most the call could cost.
      const usage = deliveredUsage(end.usage, estimate.likelyPromptTokens, delivered.outputChars);
      const estimated = creditsFor(rates, { usage, cacheStorageTokenHours: storage });
      const credits = Math.max(reported, Math.min(estimated, held.amount));
      recordTokens(usage);
      services.log.warn(
        {
          requestId,
          model,
          channel: end.channel,
          reportedUsage: end.usage ?? null,
          complete: delivered.complete,
          usage,
          credits,
        },
        "usage estimated: the upstream delivered without reporting its final usage",
      );
      held.settle(credits, logRow(end, credits, usage, true));
    },
  };
}
