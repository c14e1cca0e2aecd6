import { afterAll, describe, expect, it } from "vitest";
import { newRedisPrefix, REDIS_URL, redisReachable } from "../../test/redis-support.ts";
import { keyHash } from "../auth/key-hash.ts";
import { seedStore } from "../auth/seed-store.ts";
import { TokenStore } from "../auth/token-store.ts";
import { openStore } from "../storage/open-store.ts";
import { type Invalidation, InvalidationBus } from "./invalidation-bus.ts";
import { RedisLink } from "./redis-link.ts";

// Token invalidation across instances: what one instance publishes reaches every other, and a
// token store told to forget never keeps what a read begun before the change returned.

const redisUp = await redisReachable("invalidation bus");
const links: RedisLink[] = [];
afterAll(async () => {
  for (const link of links) await link.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!redisUp)("InvalidationBus", () => {
  it("delivers a token invalidation to every instance on the prefix, and none elsewhere", async () => {
    const prefix = newRedisPrefix("bus");
    const [a, b, other] = [prefix, prefix, newRedisPrefix("bus")].map((p) => {
      const link = new RedisLink(REDIS_URL, p);
      links.push(link);
      return new InvalidationBus(link);
    }) as [InvalidationBus, InvalidationBus, InvalidationBus];
    const seen: Invalidation[] = [];
    const elsewhere: Invalidation[] = [];
    await b.subscribe((message) => seen.push(message));
    await other.subscribe((message) => elsewhere.push(message));
    a.publish({ kind: "token", keyHash: "ab".repeat(32) });
    for (let i = 0; i < 40 && seen.length === 0; i++) await sleep(25);
    expect(seen).toEqual([{ kind: "token", keyHash: "ab".repeat(32) }]);
    expect(elsewhere).toEqual([]);
  });
});

describe("TokenStore.forget", () => {
  it("drops the cached token, and a read in flight at the time does not cache it", async () => {
    const store = await openStore("sqlite::memory:");
    const { rateLimits } = await seedStore(store, {
      users: [{ id: "u", quota: 10, unlimited: false }],
      tokens: [{ key: "sk-u", user: "u", quota: 5, unlimited: false }],
    });
    let reads = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== "findTokenByHash") {
          const value = Reflect.get(target, property, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        }
        return async (hash: string) => {
          reads += 1;
          const row = await target.findTokenByHash(hash);
          // The second read got its row, then stalls: the change lands meanwhile.
          if (reads === 2) await gate;
          return row;
        };
      },
    });
    const tokens = new TokenStore(slow, { ttlMs: 60_000, rateLimits, defaultRateLimit: {} });
    expect((await tokens.lookup("sk-u")).ok).toBe(true);
    tokens.forget(keyHash("sk-u"));
    const inFlight = tokens.lookup("sk-u"); // read 2, held at the gate
    await sleep(5);
    const row = await store.findTokenByHash(keyHash("sk-u"));
    await store.updateToken(row!.id, "u", { status: "disabled" });
    tokens.forget(keyHash("sk-u"));
    release();
    expect((await inFlight).ok).toBe(true); // read before the change
    expect(await tokens.lookup("sk-u")).toEqual({ ok: false, reason: "disabled" });
    expect(reads).toBe(3);
    await store.close();
  });
});
