import { type CacheRegistry, MemoryCacheRegistry } from "./cache/cache-registry.ts";
import { RedisCacheRegistry } from "./cache/redis-cache-registry.ts";
import type { Logger } from "./log/logger.ts";
import { MemoryRateLimiter } from "./ratelimit/memory-rate-limiter.ts";
import type { RateLimiter } from "./ratelimit/rate-limiter.ts";
import { RedisRateLimiter } from "./ratelimit/redis-rate-limiter.ts";
import { InvalidationBus } from "./redis/invalidation-bus.ts";
import { RedisLink } from "./redis/redis-link.ts";

/** What instances share when `redis_url` is set, and keep in process otherwise. */
export interface SharedState {
  readonly limiter: RateLimiter;
  readonly caches: CacheRegistry;
  /** Set with Redis: readiness pings it, token changes go out on its pub/sub. */
  readonly redis: RedisLink | undefined;
  readonly bus: InvalidationBus | undefined;
  close(): Promise<void>;
}

/**
 * Rate-limit windows and the cache registry on Redis when `redis_url` is set (every instance
 * counts into the same windows and shares upstream caches), in process otherwise. Without a
 * `clock` (tests pass one), the Redis limiter uses Redis's own clock, so skewed instances agree.
 */
export function openSharedState(
  config: { readonly redis_url?: string | undefined; readonly redis_prefix: string },
  log: Logger,
  clock?: () => number,
): SharedState {
  const now = clock ?? Date.now;
  if (config.redis_url === undefined) {
    return {
      limiter: new MemoryRateLimiter(now),
      caches: new MemoryCacheRegistry(now),
      redis: undefined,
      bus: undefined,
      close: async () => {},
    };
  }
  const redis = new RedisLink(config.redis_url, config.redis_prefix);
  let warned = 0;
  const onError = (error: unknown) => {
    // One line per 10 s at most: an outage would otherwise log once per request.
    if (Date.now() - warned < 10_000) return;
    warned = Date.now();
    log.warn({ err: error }, "Redis failed: rate limits are not enforced until it is back");
  };
  return {
    limiter: new RedisRateLimiter(redis, {
      onError,
      ...(clock === undefined ? {} : { now: clock }),
    }),
    caches: new RedisCacheRegistry(redis, now),
    redis,
    bus: new InvalidationBus(redis, (error) =>
      log.warn({ err: error }, "Redis failed to publish an invalidation"),
    ),
    close: () => redis.close(),
  };
}
