import type { RateLimitConfig } from "../config/config-schema.ts";
import type { Admission, RateLimiter } from "./rate-limiter.ts";
import { SlidingWindow } from "./sliding-window.ts";

interface KeyWindows {
  readonly requests: SlidingWindow;
  readonly tokens: SlidingWindow;
}

const ADMITTED: Admission = { ok: true };

/** The single-instance limiter: one pair of windows per key, in this process. */
export class MemoryRateLimiter implements RateLimiter {
  readonly #keys = new Map<string, KeyWindows>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  async admit(key: string, limit: RateLimitConfig): Promise<Admission> {
    if (limit.rpm === undefined && limit.tpm === undefined) return ADMITTED;
    const now = this.#now();
    const windows = this.#windows(key);
    const waits: number[] = [];
    if (limit.rpm !== undefined) waits.push(windows.requests.waitUntilAtMost(now, limit.rpm - 1));
    // Tokens are known only after a call: a key at or over its tpm waits for the window to slide.
    if (limit.tpm !== undefined) waits.push(windows.tokens.waitUntilAtMost(now, limit.tpm - 1));
    const wait = Math.max(0, ...waits);
    if (wait > 0) return { ok: false, retryAfterMs: wait };
    windows.requests.add(now, 1);
    return ADMITTED;
  }

  async recordTokens(key: string, tokens: number): Promise<void> {
    if (tokens > 0) this.#windows(key).tokens.add(this.#now(), tokens);
  }

  #windows(key: string): KeyWindows {
    let windows = this.#keys.get(key);
    if (windows === undefined) {
      windows = { requests: new SlidingWindow(), tokens: new SlidingWindow() };
      this.#keys.set(key, windows);
    }
    return windows;
  }
}
