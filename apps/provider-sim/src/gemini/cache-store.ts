import { setBounded } from "../core/bounded-map.ts";

/** An explicit context cache (`cachedContents/<id>`), kept in memory until it expires. */
export type CachedContent = {
  name: string;
  model: string;
  displayName: string | undefined;
  createdAt: number;
  updatedAt: number;
  expiresAt: number;
  tokens: number;
};

export type CacheStore = {
  put(entry: CachedContent): void;
  /** Undefined when unknown or expired. */
  get(name: string): CachedContent | undefined;
  delete(name: string): boolean;
  list(): CachedContent[];
};

const MAX_CACHES = 10_000;

export function createCacheStore(now: () => number): CacheStore {
  const entries = new Map<string, CachedContent>();
  const live = (entry: CachedContent | undefined) =>
    entry && entry.expiresAt > now() ? entry : undefined;
  return {
    put: (entry) => setBounded(entries, entry.name, entry, MAX_CACHES),
    get: (name) => live(entries.get(name)),
    delete: (name) => live(entries.get(name)) !== undefined && entries.delete(name),
    list: () => [...entries.values()].filter((entry) => live(entry)),
  };
}

export function cachedContentJson(entry: CachedContent) {
  return {
    name: entry.name,
    model: entry.model,
    ...(entry.displayName === undefined ? {} : { displayName: entry.displayName }),
    createTime: new Date(entry.createdAt).toISOString(),
    updateTime: new Date(entry.updatedAt).toISOString(),
    expireTime: new Date(entry.expiresAt).toISOString(),
    usageMetadata: { totalTokenCount: entry.tokens },
  };
}
