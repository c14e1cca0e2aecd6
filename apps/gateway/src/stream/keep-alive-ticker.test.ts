import { afterEach, describe, expect, it, vi } from "vitest";
import { everyPeriod } from "./keep-alive-ticker.ts";

describe("everyPeriod", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ticks every subscriber on one shared timer, and stops the timer with the last one", () => {
    vi.useFakeTimers();
    const seen: string[] = [];
    const stopA = everyPeriod(1000, () => seen.push("a"));
    vi.advanceTimersByTime(500);
    const stopB = everyPeriod(1000, () => seen.push("b"));
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(500);
    expect(seen).toEqual(["a", "b"]);
    stopA();
    stopA();
    vi.advanceTimersByTime(1000);
    expect(seen).toEqual(["a", "b", "b"]);
    stopB();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(5000);
    expect(seen).toEqual(["a", "b", "b"]);
  });

  it("keeps periods apart, and starts a fresh timer after the last one stopped", () => {
    vi.useFakeTimers();
    const seen: number[] = [];
    const stopFast = everyPeriod(100, () => seen.push(100));
    const stopSlow = everyPeriod(300, () => seen.push(300));
    vi.advanceTimersByTime(300);
    expect(seen.filter((p) => p === 100)).toHaveLength(3);
    expect(seen.filter((p) => p === 300)).toHaveLength(1);
    stopFast();
    stopSlow();
    const again = everyPeriod(100, () => seen.push(1));
    vi.advanceTimersByTime(100);
    expect(seen.at(-1)).toBe(1);
    again();
    expect(vi.getTimerCount()).toBe(0);
  });
});
