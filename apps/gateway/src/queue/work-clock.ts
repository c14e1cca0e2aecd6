// The clock of the in-process work queue: the time, and timers on it. The real one is Date.now
// and setTimeout; tests use ManualClock and move time themselves, so "retried 10 s later" is
// checked without waiting 10 s.

export interface WorkClock {
  now(): number;
  /** Calls `fire` after `ms`; the handle is for `clear`. Must not keep the process alive. */
  setTimer(fire: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

/** setTimeout accepts at most 2^31 - 1 ms; longer waits are taken in steps. */
const MAX_TIMER_MS = 2_147_483_647;

export const systemClock: WorkClock = {
  now: Date.now,
  setTimer(fire, ms) {
    const timer = setTimeout(fire, Math.min(MAX_TIMER_MS, Math.max(0, ms)));
    timer.unref();
    return timer;
  },
  clearTimer(handle) {
    clearTimeout(handle as NodeJS.Timeout);
  },
};

interface ManualTimer {
  readonly at: number;
  readonly seq: number;
  readonly fire: () => void;
}

/**
 * A clock that moves only when told: `advance(ms)` fires, in time order, every timer due by then
 * (timers set while firing included, when they fall inside the window), each with `now()` at its
 * own due time.
 */
export class ManualClock implements WorkClock {
  #now: number;
  #seq = 0;
  readonly #timers = new Set<ManualTimer>();

  constructor(start = 0) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fire: () => void, ms: number): unknown {
    const timer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, fire };
    this.#timers.add(timer);
    return timer;
  }

  clearTimer(handle: unknown): void {
    this.#timers.delete(handle as ManualTimer);
  }

  /** Timers not fired yet. */
  get pending(): number {
    return this.#timers.size;
  }

  advance(ms: number): void {
    this.advanceTo(this.#now + ms);
  }

  advanceTo(target: number): void {
    for (;;) {
      let next: ManualTimer | undefined;
      for (const timer of this.#timers) {
        if (timer.at > target) continue;
        if (
          next === undefined ||
          timer.at < next.at ||
          (timer.at === next.at && timer.seq < next.seq)
        )
          next = timer;
      }
      if (next === undefined) break;
      this.#timers.delete(next);
      this.#now = Math.max(this.#now, next.at);
      next.fire();
    }
    this.#now = Math.max(this.#now, target);
  }
}
