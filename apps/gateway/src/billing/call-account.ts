import type { Usage } from "@interlingua/core-types";
import { type GatewayError, paymentRequired } from "@interlingua/errors";
import type { GenerationRequest } from "../pipeline/generation-request.ts";
import type { GatewayServices } from "../services.ts";
import type { UsageLogInput } from "../storage/store.ts";
import type { Hold } from "./accounting.ts";
import { creditsFor, estimateTextCredits } from "./charge.ts";
import { toBillingUnit } from "./money.ts";

/** How a call ended, for its charge and its usage log row. */
export interface CallEnd {
  readonly status: number;
  readonly usage?: Usage | undefined;
  readonly channel?: string | undefined;
  readonly error?: string | undefined;
  /** Upstream answered, but its usage is unknown (stream cut short): charge the prompt estimate. */
  readonly producedWithoutUsage?: boolean;
  /** A Gemini cache created for this call: its one-time storage charge (SPEC.md rule 10). */
  readonly cacheStorageTokenHours?: number;
}

/** The money side of one generation call: settle or refund exactly once. */
export interface CallAccount {
  end(end: CallEnd): void;
}

const SHORT_MESSAGES = {
  token: "insufficient quota on this API key for this request",
  user: "insufficient balance on this account for this request",
} as const;

/**
 * Reserves the most this call may cost on its token and user (402 when either cannot cover it);
 * `end` later charges the real cost from the upstream's usage, or refunds everything when the
 * upstream failed. Every call, refused or not, leaves one usage log row.
 */
export async function openCallAccount(
  services: GatewayServices,
  request: GenerationRequest,
  gatewayModel: string,
  started: number,
): Promise<{ ok: true; account: CallAccount } | { ok: false; error: GatewayError }> {
  const accounting = services.accounting;
  const { token } = request;
  const rateLimit = token.rateLimit;
  const recordTokens = (usage: Usage | undefined) => {
    if (usage !== undefined && rateLimit.tpm !== undefined) {
      void services.limiter.recordTokens(String(token.id), usage.inputTokens + usage.outputTokens);
    }
  };
  if (accounting === undefined) {
    return { ok: true, account: { end: (end) => recordTokens(end.usage) } };
  }
  const rates = services.prices.ratesOrFree(gatewayModel);
  const estimate = estimateTextCredits(
    rates,
    request.canonical,
    services.config.billing.default_output_reserve,
  );
  const logRow = (end: CallEnd, credits: number): UsageLogInput => ({
    requestId: request.requestId,
    time: Date.now(),
    userId: token.userId,
    tokenId: token.id,
    tokenName: token.name,
    model: request.model,
    channel: end.channel,
    endpoint: request.endpoint.name,
    promptTokens: end.usage?.inputTokens ?? 0,
    completionTokens: end.usage?.outputTokens ?? 0,
    cachedTokens: end.usage?.cachedInputTokens ?? 0,
    cacheWriteTokens: end.usage?.cacheWriteTokens ?? 0,
    thinkingTokens: end.usage?.thinkingTokens ?? 0,
    credits,
    cost: toBillingUnit(credits, services.config.billing),
    latencyMs: Math.round(performance.now() - started),
    stream: request.stream,
    status: end.status,
    error: end.error,
  });

  const reserved = await accounting.reserve({
    requestId: request.requestId,
    tokenId: token.id,
    userId: token.userId,
    amount: estimate.credits,
    tokenUnlimited: token.unlimited,
    userUnlimited: token.userUnlimited,
  });
  if (!reserved.ok) {
    const error = paymentRequired(SHORT_MESSAGES[reserved.short]);
    accounting.logUnheld(logRow({ status: 402, error: error.message }, 0));
    return { ok: false, error };
  }
  const hold: Hold = reserved.hold;
  return {
    ok: true,
    account: {
      end(end) {
        recordTokens(end.usage);
        if (end.usage !== undefined) {
          const credits = creditsFor(rates, {
            usage: end.usage,
            cacheStorageTokenHours: end.cacheStorageTokenHours ?? 0,
          });
          hold.settle(credits, logRow(end, credits));
        } else if (end.producedWithoutUsage === true) {
          const credits =
            estimate.promptCredits +
            creditsFor(rates, { cacheStorageTokenHours: end.cacheStorageTokenHours ?? 0 });
          hold.settle(credits, logRow(end, credits));
        } else {
          hold.refund(logRow(end, 0));
        }
      },
    },
  };
}
