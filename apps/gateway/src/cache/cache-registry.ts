/** An upstream cache the gateway created, by cache key. */
export interface CacheEntry {
  /** The upstream's resource name (Gemini `cachedContents/...`). */
  readonly name: string;
  /** Unix ms. */
  readonly expiresAt: number;
}

/** What `acquire` produced for one caller. */
export type CacheAcquisition<C> =
  /** A live entry: made by an earlier request, or by a concurrent one this caller waited for. */
  | { readonly kind: "reused"; readonly entry: CacheEntry }
  /** This caller ran `create`, and it succeeded: the caller owns the creation (and its cost). */
  | { readonly kind: "created"; readonly entry: CacheEntry; readonly created: C }
  | { readonly kind: "failed"; readonly reason: string };

/** What a creation returns: the entry to register, or why there is none. */
export type CacheCreation<C> = (C & { readonly entry: CacheEntry }) | { readonly failed: string };

/**
 * Cache key -> upstream cache. In process for one instance; the scale-out issue backs the same
 * interface with Redis, hence the promises (and `acquire` as one operation, which Redis can do
 * with a lock instead of the in-process map of pending creations).
 */
export interface CacheRegistry {
  /**
   * Forgets the entry; with `name`, only while the entry still names that cache, so a request
   * that found its cache gone upstream cannot drop the fresh one another request just made.
   */
  delete(key: string, name?: string): Promise<void>;
  /**
   * The live entry for `key`, or the one `create` makes. Concurrent callers with the same key
   * share one `create` (single flight): one of them gets `created`, the others the same entry as
   * `reused`, or the same failure.
   */
  acquire<C>(key: string, create: () => Promise<CacheCreation<C>>): Promise<CacheAcquisition<C>>;
}

// An entry this close to its expiry is not handed out: the request using it must reach the
// upstream before the upstream drops the cache.
const EXPIRY_MARGIN_MS = 5_000;
const MAX_ENTRIES = 10_000;

export class MemoryCacheRegistry implements CacheRegistry {
  readonly #entries = new Map<string, CacheEntry>();
  /** Creations under way, by key: later callers wait for them instead of creating again. */
  readonly #pending = new Map<string, Promise<CacheCreation<unknown>>>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** The live entry for `key`, if any. */
  async get(key: string): Promise<CacheEntry | undefined> {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt - EXPIRY_MARGIN_MS <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.#entries.delete(key);
    // Map order is insertion order: the oldest entry goes first when the registry is full.
    if (this.#entries.size >= MAX_ENTRIES) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, entry);
  }

  async delete(key: string, name?: string): Promise<void> {
    if (name === undefined || this.#entries.get(key)?.name === name) this.#entries.delete(key);
  }

  async acquire<C>(
    key: string,
    create: () => Promise<CacheCreation<C>>,
  ): Promise<CacheAcquisition<C>> {
    const known = await this.get(key);
    if (known !== undefined) return { kind: "reused", entry: known };
    const pending = this.#pending.get(key);
    if (pending !== undefined) {
      const shared = await pending;
      return "failed" in shared
        ? { kind: "failed", reason: shared.failed }
        : { kind: "reused", entry: shared.entry };
    }
    const creation = (async () => {
      try {
        const made = await create();
        if (!("failed" in made)) await this.set(key, made.entry);
        return made;
      } catch (error) {
        return { failed: error instanceof Error ? error.message : String(error) };
      } finally {
        this.#pending.delete(key);
      }
    })();
    this.#pending.set(key, creation);
    const made = await creation;
    return "failed" in made
      ? { kind: "failed", reason: made.failed }
      : { kind: "created", entry: made.entry, created: made as C };
  }
}
