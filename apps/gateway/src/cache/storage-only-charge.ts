import { emptyUsage } from "@interlingua/core-types";
import type { CallEnd } from "../billing/call-account.ts";

/**
 * The charge of a request that failed after a Gemini cache was created for it (docs/api-reference.md rule 10):
 * the upstream stores (and bills) the cache whether or not the call that made it succeeded, and
 * the cache stays in the registry for this user's next request, which reuses it without a
 * storage charge. So the storage is charged and nothing else: no tokens were delivered.
 */
export function storageOnlyCharge(tokenHours: number): Partial<CallEnd> {
  if (tokenHours <= 0) return {};
  return {
    usage: emptyUsage(),
    delivered: { outputChars: 0, complete: true },
    cacheStorageTokenHours: tokenHours,
  };
}
