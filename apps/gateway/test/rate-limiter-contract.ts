import { expect, it } from "vitest";
import type { RateLimiter } from "../src/ratelimit/rate-limiter.ts";

// What every RateLimiter driver must do alike (memory and Redis): the same sliding minute and
// the same waits. Called inside a driver's describe; `make` builds a limiter on the given clock.

export function rateLimiterContract(make: (now: () => number) => RateLimiter): void {
  it("admits rpm requests a minute per key, then refuses with the wait, then admits again", async () => {
    let now = 10_000;
    const limiter = make(() => now);
    for (let i = 0; i < 3; i++) expect(await limiter.admit("a", { rpm: 3 })).toEqual({ ok: true });
    expect(await limiter.admit("a", { rpm: 3 })).toEqual({ ok: false, retryAfterMs: 60_000 });
    expect(await limiter.admit("b", { rpm: 3 })).toEqual({ ok: true });
    now = 70_000;
    expect(await limiter.admit("a", { rpm: 3 })).toEqual({ ok: true });
  });

  it("refuses a key that used its tokens per minute until they slide out", async () => {
    let now = 0;
    const limiter = make(() => now);
    expect(await limiter.admit("a", { tpm: 100 })).toEqual({ ok: true });
    await limiter.recordTokens("a", 150);
    now = 5_000;
    expect(await limiter.admit("a", { tpm: 100 })).toEqual({ ok: false, retryAfterMs: 55_000 });
    now = 60_000;
    expect(await limiter.admit("a", { tpm: 100 })).toEqual({ ok: true });
  });
}
