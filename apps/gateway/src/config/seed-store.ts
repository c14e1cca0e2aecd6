import { keyHash, keyHint } from "../auth/key-hash.ts";
import type { Store } from "../storage/store.ts";
import type { GatewayConfig, RateLimitConfig } from "./config-schema.ts";

/**
 * Upserts the config's users and tokens. Quotas in the config are totals granted: a restart
 * keeps what was spent, and raising a quota in the file adds the difference.
 * Returns the per-key rate limits of config tokens (they live in the config, not the database).
 */
export async function seedStore(
  store: Store,
  config: Pick<GatewayConfig, "users" | "tokens">,
): Promise<Map<string, RateLimitConfig>> {
  for (const user of config.users) {
    await store.upsertUser({ id: user.id, quota: user.quota, unlimited: user.unlimited });
  }
  const limits = new Map<string, RateLimitConfig>();
  for (const token of config.tokens) {
    const hash = keyHash(token.key);
    await store.upsertToken({
      keyHash: hash,
      keyHint: keyHint(token.key),
      name: token.name ?? `key:${hash.slice(0, 12)}`,
      userId: token.user,
      quota: token.quota ?? 0,
      unlimited: token.unlimited,
      expiresAt: token.expires_at === undefined ? undefined : Date.parse(token.expires_at),
      models: token.models,
      source: "config",
    });
    if (token.rate_limit !== undefined) limits.set(hash, token.rate_limit);
  }
  return limits;
}
