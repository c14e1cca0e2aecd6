import { remainingCredits } from "../billing/balances.ts";
import type { Store, TokenRow } from "../storage/store.ts";

// Quota a limited key grants is drawn from its own remaining: making a child of 1,317 credits
// leaves its maker 1,317 fewer, so five children of a key with 1,317 left cannot all be made
// (the draw is one conditional statement: concurrent requests cannot both spend the same
// credits). Raising another token's remaining by N draws N the same way. Lowering a token gives
// nothing back to the caller (it may not be the caller's child: a limited key must not drain a
// wider sibling into itself). A limited key never raises its own remaining, nor makes anything
// unlimited. An unlimited key grants freely; the user's own quota still bounds what all of the
// user's tokens spend together.

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
