import type { RateLimitConfig } from "../config/config-schema.ts";
import type { TokenRateLimit } from "../storage/store.ts";

// What a key may grant through the management API, besides quota (which it pays for out of its
// own remaining, see management-routes.ts): never more than it has, to a new token or to any
// existing one, itself included. Models: a subset of its own. Expiry: no later than its own.
// Rate limits: no higher than its own. What a new token leaves out, it inherits from its maker,
// so a key limited to one model makes keys limited to that model.

/** What a key may do: the bounds it passes on. undefined = no bound of that kind. */
export interface Scope {
  readonly models: readonly string[] | undefined;
  /** Unix ms. */
  readonly expiresAt: number | undefined;
  readonly rateLimit: RateLimitConfig;
}

/** What a request asks for. A field left out: inherit (new token) or keep (change). */
export interface ScopeAsk {
  /** null: every model. */
  readonly models?: readonly string[] | null | undefined;
  /** null: never expires. */
  readonly expiresAt?: number | null | undefined;
  /** null: no limit of the token's own. */
  readonly rateLimit?: TokenRateLimit | null | undefined;
}

/** A new token's scope, or why it may not have the one asked for. */
export type GrantedScope =
  | { readonly ok: true; readonly scope: Scope }
  | { readonly ok: false; readonly reason: string };

const RATE_FIELDS = ["rpm", "tpm"] as const;

const modelsRefusal = (caller: Scope, asked: readonly string[] | null): string | undefined => {
  if (caller.models === undefined) return undefined;
  if (asked === null) return "a key limited to some models cannot grant every model";
  const own = new Set(caller.models);
  const outside = asked.filter((model) => !own.has(model));
  return outside.length === 0
    ? undefined
    : `a key cannot grant models it may not use itself: ${outside.slice(0, 10).join(", ")}`;
};

const expiryRefusal = (caller: Scope, asked: number | null): string | undefined => {
  if (caller.expiresAt === undefined) return undefined;
  if (asked === null || asked > caller.expiresAt) {
    return `a key cannot grant a life past its own expiry (${Math.floor(caller.expiresAt / 1000)})`;
  }
  return undefined;
};

/** The asked limits with the caller's filled in where left out; refused where above the caller's. */
function boundedRate(
  caller: Scope,
  asked: TokenRateLimit | null,
): { ok: true; limit: RateLimitConfig } | { ok: false; reason: string } {
  const limit: { rpm?: number; tpm?: number } = {};
  for (const field of RATE_FIELDS) {
    const own = caller.rateLimit[field];
    const wanted = asked?.[field];
    if (own !== undefined && wanted !== undefined && wanted > own) {
      return { ok: false, reason: `a key cannot grant a ${field} above its own (${own})` };
    }
    const value = wanted ?? own;
    if (value !== undefined) limit[field] = value;
  }
  return { ok: true, limit };
}

/** A new token's scope: what it asks for when within the caller's, the caller's where it asks nothing. */
export function newTokenScope(caller: Scope, ask: ScopeAsk): GrantedScope {
  const models = ask.models ?? caller.models ?? null;
  const expiresAt = ask.expiresAt ?? caller.expiresAt ?? null;
  const refusal = modelsRefusal(caller, models) ?? expiryRefusal(caller, expiresAt);
  if (refusal !== undefined) return { ok: false, reason: refusal };
  const rate = boundedRate(caller, ask.rateLimit ?? null);
  if (!rate.ok) return rate;
  return {
    ok: true,
    scope: {
      models: models ?? undefined,
      expiresAt: expiresAt ?? undefined,
      rateLimit: rate.limit,
    },
  };
}

/**
 * Why the caller may not change a token's scope this way, or undefined when it may. Only what is
 * asked is checked: narrowing is always allowed, widening only up to the caller's own bounds.
 * `rateLimit` comes back with the caller's limits filled in where the ask leaves them out.
 */
export function scopeChange(
  caller: Scope,
  ask: ScopeAsk,
): { ok: true; rateLimit: RateLimitConfig | undefined } | { ok: false; reason: string } {
  const refusal =
    (ask.models === undefined ? undefined : modelsRefusal(caller, ask.models)) ??
    (ask.expiresAt === undefined ? undefined : expiryRefusal(caller, ask.expiresAt));
  if (refusal !== undefined) return { ok: false, reason: refusal };
  if (ask.rateLimit === undefined) return { ok: true, rateLimit: undefined };
  const rate = boundedRate(caller, ask.rateLimit);
  return rate.ok ? { ok: true, rateLimit: rate.limit } : rate;
}
