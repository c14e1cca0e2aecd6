import { randomUUID } from "node:crypto";
import type { RedisLink } from "../redis/redis-link.ts";
import {
  type CacheAcquisition,
  type CacheCreation,
  type CacheEntry,
  type CacheRegistry,
  MemoryCacheRegistry,
} from "./cache-registry.ts";

// Same margin as the in-process registry: an entry this close to expiry is not handed out.
const EXPIRY_MARGIN_MS = 5_000;
/** How long a creation may hold its lock; a dead creator's lock frees itself after this. */
const LOCK_MS = 30_000;
/** A failed creation's reason stays this long for the callers that waited on it. */
const FAILURE_MS = 2_000;
const POLL_MS = 50;

/** KEYS: entry key. ARGV: name. Deletes the entry only while it still names that cache. */
const DELETE_IF_NAME_LUA = `
local value = redis.call('GET', KEYS[1])
if value and cjson.decode(value).name == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

/** KEYS: lock key. ARGV: owner. Releases the lock only if this caller still holds it. */
const UNLOCK_LUA = `
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 0
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The shared registry (`redis_url` set): entries in Redis with their expiry as the key's TTL,
 * single flight across instances by a lock key (`SET NX PX`), and within one instance by a map
 * of pending acquisitions, so local callers do not all poll Redis.
 *
 * A cache must never fail a request: while Redis is down the registry is an in-process one
 * (this instance shares its caches with no other until Redis is back), and a Redis failure after
 * a cache was created only costs the entry its sharing.
 */
export class RedisCacheRegistry implements CacheRegistry {
  readonly #link: RedisLink;
  readonly #now: () => number;
  readonly #pending = new Map<string, Promise<CacheAcquisition<unknown>>>();
  readonly #local: MemoryCacheRegistry;

  constructor(link: RedisLink, now: () => number = Date.now) {
    this.#link = link;
    this.#now = now;
    this.#local = new MemoryCacheRegistry(now);
  }

  async delete(key: string, name?: string): Promise<void> {
    await this.#local.delete(key, name);
    if (this.#link.outage.skip()) return;
    try {
      if (name === undefined) await this.#link.commands.del(this.#entryKey(key));
      else await this.#link.commands.eval(DELETE_IF_NAME_LUA, 1, this.#entryKey(key), name);
    } catch (error) {
      this.#link.outage.failed("cache", error);
    }
  }

  async acquire<C>(
    key: string,
    create: () => Promise<CacheCreation<C>>,
  ): Promise<CacheAcquisition<C>> {
    const local = this.#pending.get(key);
    if (local !== undefined) {
      const shared = await local;
      return shared.kind === "created" ? { kind: "reused", entry: shared.entry } : shared;
    }
    const acquisition = this.#acquireOrLocal(key, create).finally(() => this.#pending.delete(key));
    this.#pending.set(key, acquisition as Promise<CacheAcquisition<unknown>>);
    return acquisition;
  }

  // Redis first; when it fails before `create` ran, the in-process registry instead.
  async #acquireOrLocal<C>(
    key: string,
    create: () => Promise<CacheCreation<C>>,
  ): Promise<CacheAcquisition<C>> {
    if (this.#link.outage.skip()) return this.#local.acquire(key, create);
    const state = { creating: false };
    try {
      return await this.#acquire(key, create, state);
    } catch (error) {
      this.#link.outage.failed("cache", error);
      if (state.creating) throw error;
      return this.#local.acquire(key, create);
    }
  }

  async #acquire<C>(
    key: string,
    create: () => Promise<CacheCreation<C>>,
    state: { creating: boolean },
  ): Promise<CacheAcquisition<C>> {
    const redis = this.#link.commands;
    const owner = randomUUID();
    const deadline = Date.now() + LOCK_MS + POLL_MS;
    for (;;) {
      const known = await this.#get(key);
      if (known !== undefined) return { kind: "reused", entry: known };
      const locked = await redis.set(this.#lockKey(key), owner, "PX", LOCK_MS, "NX");
      if (locked === "OK") {
        // A failure left by an earlier creation is not this one's.
        await redis.del(this.#failureKey(key));
        break;
      }
      // Another instance is creating it: wait for its entry, or for its failure.
      const failure = await redis.get(this.#failureKey(key));
      if (failure !== null) return { kind: "failed", reason: failure };
      if (Date.now() > deadline) return { kind: "failed", reason: "cache creation timed out" };
      await sleep(POLL_MS);
    }
    this.#link.outage.ok();
    state.creating = true;
    // From here on a Redis failure only costs sharing: the creation's outcome stands.
    const shared = (write: Promise<unknown>) =>
      write.catch((error: unknown) => this.#link.outage.failed("cache", error));
    try {
      let made: CacheCreation<C>;
      try {
        made = await create();
      } catch (error) {
        made = { failed: error instanceof Error ? error.message : String(error) };
      }
      if ("failed" in made) {
        await shared(redis.set(this.#failureKey(key), made.failed, "PX", FAILURE_MS));
        return { kind: "failed", reason: made.failed };
      }
      await shared(this.#set(key, made.entry));
      return { kind: "created", entry: made.entry, created: made as C };
    } finally {
      await redis.eval(UNLOCK_LUA, 1, this.#lockKey(key), owner).catch(() => undefined);
    }
  }

  async #get(key: string): Promise<CacheEntry | undefined> {
    const text = await this.#link.commands.get(this.#entryKey(key));
    if (text === null) return undefined;
    const entry = JSON.parse(text) as CacheEntry;
    return entry.expiresAt - EXPIRY_MARGIN_MS <= this.#now() ? undefined : entry;
  }

  async #set(key: string, entry: CacheEntry): Promise<void> {
    const ttl = Math.floor(entry.expiresAt - EXPIRY_MARGIN_MS - this.#now());
    if (ttl <= 0) return;
    const value = JSON.stringify({ name: entry.name, expiresAt: entry.expiresAt });
    await this.#link.commands.set(this.#entryKey(key), value, "PX", ttl);
    // A fresh entry ends any failure other callers may still be reading.
    await this.#link.commands.del(this.#failureKey(key));
  }

  #entryKey(key: string): string {
    return this.#link.key("cache", key);
  }

  #lockKey(key: string): string {
    return this.#link.key("cache-lock", key);
  }

  #failureKey(key: string): string {
    return this.#link.key("cache-failed", key);
  }
}
