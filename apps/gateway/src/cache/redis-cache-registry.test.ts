import { afterAll, describe, expect, it } from "vitest";
import { newRedisPrefix, REDIS_URL, redisReachable } from "../../test/redis-support.ts";
import { RedisLink } from "../redis/redis-link.ts";
import type { CacheCreation } from "./cache-registry.ts";
import { RedisCacheRegistry } from "./redis-cache-registry.ts";

// Two registries on one Redis prefix stand for two gateway instances: one upstream cache per
// key between them (single flight across instances), failures shared, deletes by name.

type Made = { tokens: number };
const redisUp = await redisReachable("Redis cache registry");
const links: RedisLink[] = [];
const pair = () => {
  const prefix = newRedisPrefix("cache");
  const a = new RedisLink(REDIS_URL, prefix);
  const b = new RedisLink(REDIS_URL, prefix);
  links.push(a, b);
  return [new RedisCacheRegistry(a, () => 0), new RedisCacheRegistry(b, () => 0)] as const;
};
const entry = (name: string) => ({ name, expiresAt: 600_000 });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  for (const link of links) {
    const keys = await link.commands.keys(`${link.prefix}:*`);
    if (keys.length > 0) await link.commands.del(...keys);
    await link.close();
  }
});

describe.skipIf(!redisUp)("RedisCacheRegistry", () => {
  it("shares one creation between instances and within one", async () => {
    const [a, b] = pair();
    let started = 0;
    const create = async (): Promise<CacheCreation<Made>> => {
      started += 1;
      await sleep(150);
      return { entry: entry("cachedContents/x"), tokens: 7 };
    };
    const results = await Promise.all([
      a.acquire("k", create),
      a.acquire("k", create),
      b.acquire("k", create),
      b.acquire("k", create),
    ]);
    expect(started).toBe(1);
    expect(results.filter((r) => r.kind === "created")).toHaveLength(1);
    expect(results.filter((r) => r.kind === "reused")).toHaveLength(3);
    for (const r of results) expect(r.kind !== "failed" && r.entry.name).toBe("cachedContents/x");
    expect(await b.acquire("k", create)).toMatchObject({ kind: "reused" });
    expect(started).toBe(1);
  });

  it("fails the waiters of a failed creation; the next call tries again", async () => {
    const [a, b] = pair();
    const failing = async (): Promise<CacheCreation<Made>> => {
      await sleep(120);
      return { failed: "status 503" };
    };
    const first = a.acquire("k", failing);
    await sleep(20);
    const waiter = await b.acquire("k", failing);
    expect(await first).toEqual({ kind: "failed", reason: "status 503" });
    expect(waiter).toEqual({ kind: "failed", reason: "status 503" });
    const again = await b.acquire("k", async () => ({
      entry: entry("cachedContents/y"),
      tokens: 1,
    }));
    expect(again).toMatchObject({ kind: "created", entry: { name: "cachedContents/y" } });
  });

  it("deletes by name only while the entry still names that cache", async () => {
    const [a, b] = pair();
    await a.acquire("k", async () => ({ entry: entry("cachedContents/new"), tokens: 1 }));
    await b.delete("k", "cachedContents/old");
    expect(await b.acquire("k", async () => ({ failed: "unused" }))).toMatchObject({
      kind: "reused",
    });
    await b.delete("k", "cachedContents/new");
    expect(await a.acquire("k", async () => ({ failed: "gone" }))).toEqual({
      kind: "failed",
      reason: "gone",
    });
  });
});
