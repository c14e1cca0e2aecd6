import type { AuthenticatedToken } from "../auth/token-store.ts";
import { type Consumption, creditsFor } from "../billing/charge.ts";
import { toBillingUnit } from "../billing/money.ts";
import { reserveHold } from "../billing/reserve-hold.ts";
import { unitUsageRow } from "../billing/unit-usage-row.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { UsageLogInput } from "../storage/store.ts";

/** The call a media account is for: who pays, which model, and for the usage log. */
export interface MediaCall {
  readonly requestId: string;
  readonly token: AuthenticatedToken;
  /** The model as the client named it (the log row's model). */
  readonly model: string;
  /** The gateway id its price is under (an alias resolved). */
  readonly gatewayModel: string;
  /** The usage log's endpoint name. */
  readonly endpoint: string;
  readonly started: number;
}

export interface MediaCallEnd {
  readonly status: number;
  readonly channel?: string | undefined;
  readonly error?: string | undefined;
}

/** Settle or refund exactly once: the first call wins, later ones do nothing. */
export interface MediaAccount {
  /** The credits a consumption costs at this model's prices (what `settle` will charge). */
  price(consumed: Consumption): number;
  /** Charges what was consumed (never more than the hold) and writes the call's log row. */
  settle(consumed: Consumption, end: MediaCallEnd): number;
  /** Releases the hold without charging (the upstream failed), writing the log row. */
  refund(end: MediaCallEnd): void;
}

/**
 * Media priced in units (speech characters, audio minutes) go through the same quota leases and
 * usage log as a generation (billing/accounting.ts); a refused call (402, thrown) still leaves
 * its log row.
 */
export async function openMediaAccount(
  services: GatewayServices,
  call: MediaCall,
  most: Consumption,
): Promise<MediaAccount> {
  const rates = services.prices.ratesOrFree(call.gatewayModel);
  const price = (consumed: Consumption) => creditsFor(rates, consumed);
  const accounting = services.accounting;
  if (accounting === undefined) {
    return { price, settle: price, refund: () => {} };
  }
  const { token } = call;
  const logRow = (end: MediaCallEnd, credits: number): UsageLogInput =>
    unitUsageRow({
      requestId: call.requestId,
      time: Date.now(),
      userId: token.userId,
      tokenId: token.id,
      tokenName: token.name,
      model: call.model,
      channel: end.channel,
      endpoint: call.endpoint,
      credits,
      cost: toBillingUnit(credits, services.config.billing),
      latencyMs: Math.round(performance.now() - call.started),
      status: end.status,
      error: end.error,
    });
  const held = await reserveHold(
    accounting,
    { requestId: call.requestId, token, amount: price(most) },
    (error) => logRow({ status: 402, error }, 0),
  );
  return {
    price,
    settle(consumed, end) {
      // The hold is by construction the most the call may cost.
      const credits = Math.min(price(consumed), held.amount);
      held.settle(credits, logRow(end, credits));
      return credits;
    },
    refund(end) {
      held.refund(logRow(end, 0));
    },
  };
}
