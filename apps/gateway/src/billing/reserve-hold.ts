import { paymentRequired } from "@interlingua/errors";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import type { UsageLogInput } from "../storage/store.ts";
import type { Accounting, Hold } from "./accounting.ts";

const SHORT_MESSAGES = {
  token: "insufficient quota on this API key for this request",
  user: "insufficient balance on this account for this request",
} as const;

/**
 * Holds `amount` credits on the token and its user for one call, or answers 402 when either
 * cannot cover it; a refused call still writes its usage log row (`refusedRow`, given the 402's
 * message). Shared by generation and media accounts.
 */
export async function reserveHold(
  accounting: Accounting,
  call: { readonly requestId: string; readonly token: AuthenticatedToken; readonly amount: number },
  refusedRow: (error: string) => UsageLogInput,
): Promise<Hold> {
  const { token } = call;
  const wanted = {
    requestId: call.requestId,
    tokenId: token.id,
    userId: token.userId,
    amount: call.amount,
    tokenUnlimited: token.unlimited,
    userUnlimited: token.userUnlimited,
  };
  // Usually the leases have room and the answer is immediate; otherwise a lease grows first.
  const reserved = accounting.tryReserve(wanted) ?? (await accounting.reserve(wanted));
  if (!reserved.ok) {
    const error = paymentRequired(SHORT_MESSAGES[reserved.short]);
    accounting.logUnheld(refusedRow(error.message));
    throw error;
  }
  return reserved.hold;
}
