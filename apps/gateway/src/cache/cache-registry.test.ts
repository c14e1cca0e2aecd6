import { describe, expect, it } from "vitest";
import { type CacheCreation, MemoryCacheRegistry } from "./cache-registry.ts";

type Made = { tokens: number };

/** A creation the test finishes by hand, counting how often it was started. */
function manualCreate() {
  let finish: (value: CacheCreation<Made>) => void = () => {};
  let started = 0;
  const create = () => {
    started += 1;
    return new Promise<CacheCreation<Made>>((resolve) => {
      finish = resolve;
    });
  };
  return { create, finish: (value: CacheCreation<Made>) => finish(value), started: () => started };
}

describe("MemoryCacheRegistry", () => {
  const entry = (name: string, expiresAt = 1_000_000) => ({ name, expiresAt });

  it("acquire: concurrent callers with one key share one creation (single flight)", async () => {
    const registry = new MemoryCacheRegistry(() => 0);
    const manual = manualCreate();
    const first = registry.acquire("k", manual.create);
    const second = registry.acquire("k", manual.create);
    await new Promise((r) => setTimeout(r, 5));
    manual.finish({ entry: entry("cachedContents/a"), tokens: 10 });
    expect(await first).toEqual({
      kind: "created",
      entry: entry("cachedContents/a"),
      created: { entry: entry("cachedContents/a"), tokens: 10 },
    });
    expect(await second).toEqual({ kind: "reused", entry: entry("cachedContents/a") });
    expect(manual.started()).toBe(1);
    expect(await registry.acquire("k", manual.create)).toMatchObject({ kind: "reused" });
    expect(manual.started()).toBe(1);
  });

  it("acquire: a failed creation fails every waiter, registers nothing, and the next call tries again", async () => {
    const registry = new MemoryCacheRegistry(() => 0);
    const manual = manualCreate();
    const first = registry.acquire("k", manual.create);
    const second = registry.acquire("k", manual.create);
    await new Promise((r) => setTimeout(r, 5));
    manual.finish({ failed: "status 503" });
    expect(await first).toEqual({ kind: "failed", reason: "status 503" });
    expect(await second).toEqual({ kind: "failed", reason: "status 503" });
    expect(await registry.get("k")).toBeUndefined();
    const again = registry.acquire("k", manual.create);
    await new Promise((r) => setTimeout(r, 5));
    expect(manual.started()).toBe(2);
    manual.finish({ entry: entry("cachedContents/b"), tokens: 1 });
    expect(await again).toMatchObject({ kind: "created" });
  });

  it("acquire: a creation that throws is a failure, not an exception", async () => {
    const registry = new MemoryCacheRegistry(() => 0);
    const got = await registry.acquire<Made>("k", async () => {
      throw new Error("boom");
    });
    expect(got).toEqual({ kind: "failed", reason: "boom" });
  });

  it("an entry close to its expiry is not handed out", async () => {
    let now = 0;
    const registry = new MemoryCacheRegistry(() => now);
    await registry.set("k", entry("cachedContents/a", 60_000));
    expect(await registry.get("k")).toBeDefined();
    now = 56_000;
    expect(await registry.get("k")).toBeUndefined();
  });

  it("delete with a name forgets only the entry that still names that cache", async () => {
    const registry = new MemoryCacheRegistry(() => 0);
    await registry.set("k", entry("cachedContents/new"));
    await registry.delete("k", "cachedContents/old");
    expect((await registry.get("k"))?.name).toBe("cachedContents/new");
    await registry.delete("k", "cachedContents/new");
    expect(await registry.get("k")).toBeUndefined();
  });
});
