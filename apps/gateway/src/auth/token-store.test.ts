import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../storage/open-store.ts";
import type { Store } from "../storage/store.ts";
import { readCredential } from "./credential-sources.ts";
import { keyHash } from "./key-hash.ts";
import { seedStore } from "./seed-store.ts";
import { TokenStore } from "./token-store.ts";

describe("TokenStore", () => {
  let store: Store;
  let now = Date.parse("2026-01-01T00:00:00Z");
  let tokens: TokenStore;
  beforeAll(async () => {
    store = await openStore("sqlite::memory:");
    const { rateLimits } = await seedStore(store, {
      users: [{ id: "alice", quota: 10, unlimited: false }],
      tokens: [
        { key: "sk-alice-1", user: "alice", quota: 5, unlimited: false },
        {
          key: "sk-alice-2",
          user: "alice",
          unlimited: true,
          name: "ci",
          models: ["txtA-5"],
          rate_limit: { rpm: 7 },
        },
        {
          key: "sk-alice-old",
          user: "alice",
          unlimited: true,
          expires_at: "2000-01-01T00:00:00Z",
        },
      ],
    });
    tokens = new TokenStore(store, {
      ttlMs: 1000,
      rateLimits,
      defaultRateLimit: { rpm: 60 },
      now: () => now,
    });
  });
  afterAll(async () => {
    await store.close();
  });

  it("finds a token by its key and names it by something that is not the key", async () => {
    const found = await tokens.lookup("sk-alice-1");
    if (!found.ok) throw new Error(found.reason);
    expect(found.token).toMatchObject({ userId: "alice", unlimited: false, models: undefined });
    expect(found.token.name).toBe(`key:${keyHash("sk-alice-1").slice(0, 12)}`);
    expect(found.token.name).not.toContain("sk-alice-1");
    expect(found.token.rateLimit).toEqual({ rpm: 60 });
    const ci = await tokens.lookup("sk-alice-2");
    if (!ci.ok) throw new Error(ci.reason);
    expect(ci.token.name).toBe("ci");
    expect([...(ci.token.models ?? [])]).toEqual(["txtA-5"]);
    expect(ci.token.rateLimit).toEqual({ rpm: 7 });
  });

  it("rejects unknown keys and near misses, and expired keys as such", async () => {
    expect(await tokens.lookup("sk-alice-3")).toEqual({ ok: false, reason: "invalid" });
    expect(await tokens.lookup("sk-alice-1 ")).toEqual({ ok: false, reason: "invalid" });
    expect(await tokens.lookup("")).toEqual({ ok: false, reason: "invalid" });
    expect(await tokens.lookup("sk-alice-old")).toEqual({ ok: false, reason: "expired" });
  });

  it("sees a change made elsewhere once its cached copy is older than the ttl", async () => {
    const found = await tokens.lookup("sk-alice-1");
    if (!found.ok) throw new Error(found.reason);
    await store.updateToken(found.token.id, "alice", { status: "disabled" });
    expect((await tokens.lookup("sk-alice-1")).ok).toBe(true);
    now += 1001;
    expect(await tokens.lookup("sk-alice-1")).toEqual({ ok: false, reason: "disabled" });
  });
});

describe("readCredential", () => {
  const url = new URL("http://h/v1beta/models/m:generateContent?key=from-query");
  const plain = new URL("http://h/v1/chat/completions");

  it("reads Bearer everywhere, case-insensitively", () => {
    const headers = new Headers({ authorization: "bearer  sk-1 " });
    expect(readCredential("standard", headers, plain)).toBe("sk-1");
    expect(readCredential("messages", headers, plain)).toBe("sk-1");
    expect(readCredential("native", headers, plain)).toBe("sk-1");
  });

  it("reads x-api-key only on messages", () => {
    const headers = new Headers({ "x-api-key": "sk-2" });
    expect(readCredential("messages", headers, plain)).toBe("sk-2");
    expect(readCredential("standard", headers, plain)).toBeUndefined();
    expect(readCredential("native", headers, plain)).toBeUndefined();
  });

  it("reads both spellings of the vendor key header and ?key= only on native", () => {
    expect(readCredential("native", new Headers({ "x-goog-api-key": "g" }), plain)).toBe("g");
    expect(readCredential("native", new Headers({ "x-vendor-api-key": "v" }), plain)).toBe("v");
    expect(readCredential("native", new Headers(), url)).toBe("from-query");
    expect(readCredential("standard", new Headers({ "x-goog-api-key": "g" }), url)).toBeUndefined();
    expect(readCredential("messages", new Headers(), url)).toBeUndefined();
  });

  it("ignores other schemes and empty values", () => {
    expect(
      readCredential("standard", new Headers({ authorization: "Basic abc" }), plain),
    ).toBeUndefined();
    expect(
      readCredential("standard", new Headers({ authorization: "Bearer " }), plain),
    ).toBeUndefined();
  });
});
