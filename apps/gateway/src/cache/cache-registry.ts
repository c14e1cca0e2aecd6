/** An upstream cache the gateway created, by cache key. */
export interface CacheEntry {
  /** The upstream's resource name (Gemini `cachedContents/...`). */
  readonly name: string;
  /** Unix ms. */
  readonly expiresAt: number;
}

/**
 * Cache key -> upstream cache. In process for one instance; the scale-out issue backs the same
 * interface with Redis, hence the promises.
 */
export interface CacheRegistry {
  get(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
  delete(key: string): Promise<void>;
}

// An entry this close to its expiry is not handed out: the request using it must reach the
// upstream before the upstream drops the cache.
const EXPIRY_MARGIN_MS = 5_000;
const MAX_ENTRIES = 10_000;

export class MemoryCacheRegistry implements CacheRegistry {
  readonly #entries = new Map<string, CacheEntry>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

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

  async delete(key: string): Promise<void> {
    this.#entries.delete(key);
  }
}
