import type { GatewayConfig, RateLimitConfig } from "../config/config-schema.ts";
import type { Store } from "../storage/store.ts";
import { keyHash, keyHint } from "./key-hash.ts";

export interface SeedOutcome {
  /** The per-key rate limits of config tokens (they live in the config, not the database). */
  readonly rateLimits: Map<string, RateLimitConfig>;
  /** Names of config tokens deleted through the API: they stay deleted (not re-created). */
  readonly deleted: string[];
}

/**
 * Upserts the config's users and tokens. Quotas in the config are totals granted: a restart
 * keeps what was spent, and raising a quota in the file adds the difference.
 */
export async function seedStore(
  store: Store,
  config: Pick<GatewayConfig, "users" | "tokens">,
): Promise<SeedOutcome> {
  for (const user of config.users) {
    await store.upsertUser({ id: user.id, quota: user.quota, unlimited: user.unlimited });
  }
  const rateLimits = new Map<string, RateLimitConfig>();
  const deleted: string[] = [];
  for (const token of config.tokens) {
    const hash = keyHash(token.key);
    const name = token.name ?? `key:${hash.slice(0, 12)}`;
    const row = await store.upsertToken({
      keyHash: hash,
      keyHint: keyHint(token.key),
      name,
      userId: token.user,
      quota: token.quota ?? 0,
      unlimited: token.unlimited,
      expiresAt: token.expires_at === undefined ? undefined : Date.parse(token.expires_at),
      models: token.models,
      source: "config",
    });
    if (row === undefined) deleted.push(name);
    if (token.rate_limit !== undefined) rateLimits.set(hash, token.rate_limit);
  }
  return { rateLimits, deleted };
}
