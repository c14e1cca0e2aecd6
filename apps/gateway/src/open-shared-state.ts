import { type CacheRegistry, MemoryCacheRegistry } from "./cache/cache-registry.ts";
import { RedisCacheRegistry } from "./cache/redis-cache-registry.ts";
import type { Logger } from "./log/logger.ts";
import { MemoryRateLimiter } from "./ratelimit/memory-rate-limiter.ts";
import type { RateLimiter } from "./ratelimit/rate-limiter.ts";
import { RedisRateLimiter } from "./ratelimit/redis-rate-limiter.ts";
import { InvalidationBus } from "./redis/invalidation-bus.ts";
import { RedisLink } from "./redis/redis-link.ts";
import { RedisOutage } from "./redis/redis-outage.ts";

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
  onFailure?: (operation: string) => void,
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
  // One warning per outage, a metric per failed call (docs/scale-out.md, "Redis down").
  const outage = new RedisOutage({ log, ...(onFailure === undefined ? {} : { onFailure }) });
  const redis = new RedisLink(config.redis_url, config.redis_prefix, outage);
  return {
    limiter: new RedisRateLimiter(redis, clock === undefined ? {} : { now: clock }),
    caches: new RedisCacheRegistry(redis, now),
    redis,
    bus: new InvalidationBus(redis, (error) => outage.failed("publish", error)),
    close: () => redis.close(),
  };
}
