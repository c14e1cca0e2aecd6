import { afterAll, describe, expect, it } from "vitest";
import { rateLimiterContract } from "../../test/rate-limiter-contract.ts";
import { newRedisPrefix, REDIS_URL, redisReachable } from "../../test/redis-support.ts";
import { RedisLink } from "../redis/redis-link.ts";
import { RedisRateLimiter } from "./redis-rate-limiter.ts";

// The Redis limiter must behave as the memory one (same sliding minute, same waits), and two
// limiters on one Redis (two instances) must share the windows atomically.

const redisUp = await redisReachable("Redis rate limiter");
const links: RedisLink[] = [];
const link = () => {
  const made = new RedisLink(REDIS_URL, newRedisPrefix("rl"));
  links.push(made);
  return made;
};

afterAll(async () => {
  for (const made of links) {
    const keys = await made.commands.keys(`${made.prefix}:*`).catch(() => []);
    if (keys.length > 0) await made.commands.del(...keys);
    await made.close();
  }
});

describe.skipIf(!redisUp)("RedisRateLimiter", () => {
  rateLimiterContract((now) => new RedisRateLimiter(link(), { now }));

  it("slides by the second: the oldest second leaves first", async () => {
    let now = 1_000;
    const limiter = new RedisRateLimiter(link(), { now: () => now });
    expect((await limiter.admit("k", { rpm: 2 })).ok).toBe(true);
    now = 30_500;
    expect((await limiter.admit("k", { rpm: 2 })).ok).toBe(true);
    now = 40_000;
    expect(await limiter.admit("k", { rpm: 2 })).toEqual({ ok: false, retryAfterMs: 21_000 });
    now = 61_000;
    expect((await limiter.admit("k", { rpm: 2 })).ok).toBe(true);
  });

  it("shares one window between two instances and never over-admits under concurrency", async () => {
    const shared = link();
    const other = new RedisLink(REDIS_URL, shared.prefix);
    links.push(other);
    const a = new RedisRateLimiter(shared);
    const b = new RedisRateLimiter(other);
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).admit("hot", { rpm: 25 })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(25);
    const refused = results.find((r) => !r.ok);
    expect(refused !== undefined && !refused.ok && refused.retryAfterMs > 0).toBe(true);
  });

  it("fails open, and says so, when Redis is unreachable", async () => {
    const dead = new RedisLink("redis://127.0.0.1:1", newRedisPrefix("dead"));
    links.push(dead);
    const errors: unknown[] = [];
    const limiter = new RedisRateLimiter(dead, { onError: (e) => errors.push(e) });
    expect(await limiter.admit("a", { rpm: 1 })).toEqual({ ok: true });
    expect(errors.length).toBe(1);
  });
});
