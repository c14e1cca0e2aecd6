import { describe, expect, it } from "vitest";
import { rateLimiterContract } from "../../test/rate-limiter-contract.ts";
import { MemoryRateLimiter } from "./memory-rate-limiter.ts";
import { SlidingWindow } from "./sliding-window.ts";

describe("SlidingWindow", () => {
  it("counts the last 60 seconds and forgets older seconds", () => {
    const window = new SlidingWindow();
    window.add(1_000, 5);
    window.add(30_500, 2);
    expect(window.total(59_999)).toBe(7);
    expect(window.total(61_000)).toBe(2);
    expect(window.total(91_000)).toBe(0);
  });

  it("tells how long until the total slides down to a bound", () => {
    const window = new SlidingWindow();
    window.add(1_000, 5);
    window.add(30_500, 2);
    expect(window.waitUntilAtMost(40_000, 7)).toBe(0);
    expect(window.waitUntilAtMost(40_000, 3)).toBe(61_000 - 40_000);
    expect(window.waitUntilAtMost(40_000, 0)).toBe(90_000 - 40_000);
  });
});

describe("MemoryRateLimiter", () => {
  rateLimiterContract((now) => new MemoryRateLimiter(now));

  it("admits everything without limits", async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    for (let i = 0; i < 1000; i++) expect((await limiter.admit("a", {})).ok).toBe(true);
  });
});
