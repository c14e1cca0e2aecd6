import { timingSafeEqual } from "node:crypto";
import type { RateLimitConfig } from "../config/config-schema.ts";
import type { Store, TokenRow } from "../storage/store.ts";
import { keyHash } from "./key-hash.ts";

export interface AuthenticatedToken {
  readonly id: number;
  /** Loggable: the token's name. Never the key. */
  readonly name: string;
  readonly userId: string;
  readonly unlimited: boolean;
  readonly userUnlimited: boolean;
  /** Gateway model ids this token may use; undefined means all. */
  readonly models: ReadonlySet<string> | undefined;
  readonly rateLimit: RateLimitConfig;
}

export type TokenLookup =
  | { readonly ok: true; readonly token: AuthenticatedToken }
  | { readonly ok: false; readonly reason: "invalid" | "expired" | "disabled" };

interface Cached {
  readonly row: TokenRow;
  /** The stored hash as bytes, decoded once per read rather than per request. */
  readonly hash: Buffer;
  readonly token: AuthenticatedToken;
  readonly fetchedAt: number;
}

export interface TokenStoreOptions {
  /** How long a token read from the database is trusted before it is read again. */
  readonly ttlMs: number;
  /** Limits by key hash (config tokens), and the default for every other token. */
  readonly rateLimits: ReadonlyMap<string, RateLimitConfig>;
  readonly defaultRateLimit: RateLimitConfig;
  readonly now?: () => number;
  /** Told of every `invalidate`, so other instances forget the token too (Redis pub/sub). */
  readonly broadcast?: (keyHashHex: string) => void;
}

const INVALID: TokenLookup = { ok: false, reason: "invalid" };

const ownRateLimit = (row: TokenRow): RateLimitConfig | undefined =>
  row.rateLimit === undefined
    ? undefined
    : {
        ...(row.rateLimit.rpm === undefined ? {} : { rpm: row.rateLimit.rpm }),
        ...(row.rateLimit.tpm === undefined ? {} : { tpm: row.rateLimit.tpm }),
      };

/**
 * API keys, looked up by hash. Hot path: a memory hit; a miss (or an entry older than the ttl,
 * so changes made by another instance show up) reads the database once, shared by concurrent
 * callers. The final comparison is constant-time so a lookup never reveals how much of a hash
 * matched.
 */
export class TokenStore {
  readonly #store: Store;
  readonly #options: TokenStoreOptions;
  readonly #now: () => number;
  readonly #cache = new Map<string, Cached>();
  readonly #pending = new Map<string, Promise<Cached | undefined>>();
  /** Bumped by every forget: a read begun before it must not cache what it read. */
  #generation = 0;

  constructor(store: Store, options: TokenStoreOptions) {
    this.#store = store;
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** A token's own limit, as `GET /api/token` shows it: the config's for a config key, else its row's. */
  ownRateLimit(row: TokenRow): RateLimitConfig | undefined {
    return this.#options.rateLimits.get(row.keyHash) ?? ownRateLimit(row);
  }

  async lookup(key: string): Promise<TokenLookup> {
    const digest = keyHash(key);
    const now = this.#now();
    let entry = this.#cache.get(digest);
    if (entry === undefined || now - entry.fetchedAt > this.#options.ttlMs) {
      entry = await this.#load(digest);
    }
    if (entry === undefined) return INVALID;
    const given = Buffer.from(digest, "hex");
    if (entry.hash.length !== given.length || !timingSafeEqual(entry.hash, given)) return INVALID;
    if (entry.row.status !== "active") return { ok: false, reason: "disabled" };
    if (entry.row.expiresAt !== undefined && entry.row.expiresAt <= now) {
      return { ok: false, reason: "expired" };
    }
    return { ok: true, token: entry.token };
  }

  /** Forget a token (after it was changed through this instance) so the next lookup reads it. */
  invalidate(keyHashHex: string): void {
    this.forget(keyHashHex);
    this.#options.broadcast?.(keyHashHex);
  }

  /** Forget a token in this instance only (another instance changed it). */
  forget(keyHashHex: string): void {
    this.#generation += 1;
    this.#pending.delete(keyHashHex);
    this.#cache.delete(keyHashHex);
  }

  #load(digest: string): Promise<Cached | undefined> {
    let pending = this.#pending.get(digest);
    if (pending === undefined) {
      const read = this.#read(digest).finally(() => {
        if (this.#pending.get(digest) === read) this.#pending.delete(digest);
      });
      pending = read;
      this.#pending.set(digest, pending);
    }
    return pending;
  }

  async #read(digest: string): Promise<Cached | undefined> {
    const generation = this.#generation;
    const row = await this.#store.findTokenByHash(digest);
    if (row === undefined) {
      this.#cache.delete(digest);
      return undefined;
    }
    const user = await this.#store.getUser(row.userId);
    const token: AuthenticatedToken = {
      id: row.id,
      name: row.name,
      userId: row.userId,
      unlimited: row.unlimited,
      userUnlimited: user?.unlimited ?? false,
      models: row.models === undefined ? undefined : new Set(row.models),
      // The config's limit for this key, else the token's own (API tokens), else the default.
      rateLimit: this.ownRateLimit(row) ?? this.#options.defaultRateLimit,
    };
    const entry: Cached = {
      row,
      hash: Buffer.from(row.keyHash, "hex"),
      token,
      fetchedAt: this.#now(),
    };
    // Forgotten meanwhile (changed elsewhere): answer this caller, but read again next time.
    if (generation === this.#generation) this.#cache.set(digest, entry);
    return entry;
  }
}
