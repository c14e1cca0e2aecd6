import type { Store, TokenRow } from "../storage/store.ts";
import { remainingCredits } from "./balances.ts";

// A limited key's grants are drawn from its own remaining in one conditional statement, so
// concurrent grants cannot spend the same credits. Lowering a token refunds nothing: it may be a
// wider sibling, which a limited key must not drain into itself.

export type QuotaDraw =
  | { readonly ok: true; readonly drawn: number }
  | { readonly ok: false; readonly reason: string };

const NOTHING: QuotaDraw = { ok: true, drawn: 0 };

const shortOf = (caller: TokenRow, what: string): QuotaDraw => ({
  ok: false,
  reason: `a limited API key cannot ${what} more quota than it has left (${remainingCredits(caller)} credits)`,
});

/** Draws a new token's quota from a limited caller, or says why it may not make that token. */
export async function drawForNewToken(
  store: Store,
  caller: TokenRow,
  ask: { remaining: number; unlimited: boolean },
): Promise<QuotaDraw> {
  if (caller.unlimited) return NOTHING;
  if (ask.unlimited)
    return { ok: false, reason: "a limited API key cannot create an unlimited token" };
  if (ask.remaining === 0) return NOTHING;
  const drawn = await store.drawTokenQuota(caller.id, caller.userId, ask.remaining);
  return drawn === undefined
    ? shortOf(caller, "give a new token")
    : { ok: true, drawn: ask.remaining };
}

/** Draws what raising `target`'s remaining costs a limited caller, or says why it may not. */
export async function drawForChange(
  store: Store,
  caller: TokenRow,
  target: TokenRow,
  ask: { remaining?: number | undefined; unlimited?: boolean | undefined },
): Promise<QuotaDraw> {
  if (caller.unlimited) return NOTHING;
  if (ask.unlimited === true && !target.unlimited) {
    return { ok: false, reason: "a limited API key cannot make a token unlimited" };
  }
  // An unlimited target set to a remaining is narrowed, not granted anything.
  if (ask.remaining === undefined || target.unlimited) return NOTHING;
  const raise = ask.remaining - remainingCredits(target);
  if (raise <= 0) return NOTHING;
  if (target.id === caller.id) {
    return { ok: false, reason: "a limited API key cannot raise its own quota" };
  }
  const drawn = await store.drawTokenQuota(caller.id, caller.userId, raise);
  return drawn === undefined ? shortOf(caller, "give a token") : { ok: true, drawn: raise };
}

/** Gives a draw back when what it paid for could not be made. */
export async function giveBack(store: Store, caller: TokenRow, draw: QuotaDraw): Promise<void> {
  if (draw.ok && draw.drawn > 0) await store.drawTokenQuota(caller.id, caller.userId, -draw.drawn);
}
