import type { TokenRow } from "../storage/store.ts";
import { remainingCredits } from "./balances.ts";

// Every key of a user manages that user's tokens, so a limited key never grants more than it has
// (else it could mint itself an unlimited one). The user's quota still bounds all its tokens.

/** What a request asks to grant: a new token's quota, or a change to an existing one. */
export interface Grant {
  readonly remaining?: number | undefined;
  readonly unlimited?: boolean | undefined;
}

const remainingOf = (row: TokenRow) =>
  row.unlimited ? Number.POSITIVE_INFINITY : remainingCredits(row);

/** Why `caller` may not create a token with `grant`, or undefined when it may. */
export function refuseNewToken(caller: TokenRow, grant: Grant): string | undefined {
  if (caller.unlimited) return undefined;
  if (grant.unlimited === true) return "a limited API key cannot create an unlimited token";
  const own = remainingOf(caller);
  if ((grant.remaining ?? 0) > own) {
    return `a limited API key cannot give a new token more quota than it has left (${own} credits)`;
  }
  return undefined;
}

/** Why `caller` may not change `target` by `grant`, or undefined when it may. */
export function refuseTokenChange(
  caller: TokenRow,
  target: TokenRow,
  grant: Grant,
): string | undefined {
  if (caller.unlimited) return undefined;
  if (grant.unlimited === true && !target.unlimited) {
    return "a limited API key cannot make a token unlimited";
  }
  const own = remainingOf(caller);
  const current = remainingOf(target);
  if (grant.remaining !== undefined && grant.remaining > current && grant.remaining > own) {
    return `a limited API key cannot raise a token's quota above what it has left itself (${own} credits)`;
  }
  return undefined;
}
