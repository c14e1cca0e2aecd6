const SLOTS = 60;
const SLOT_MS = 1_000;

/**
 * A count over the last minute, in 60 one-second slots: memory stays fixed however busy the key
 * is, and the window slides by the second.
 */
export class SlidingWindow {
  readonly #counts = new Float64Array(SLOTS);
  readonly #seconds = new Float64Array(SLOTS).fill(-1);

  add(now: number, amount: number): void {
    const second = Math.floor(now / SLOT_MS);
    const slot = second % SLOTS;
    if (this.#seconds[slot] !== second) {
      this.#seconds[slot] = second;
      this.#counts[slot] = 0;
    }
    this.#counts[slot] = (this.#counts[slot] ?? 0) + amount;
  }

  total(now: number): number {
    const oldest = Math.floor(now / SLOT_MS) - SLOTS + 1;
    let sum = 0;
    for (let i = 0; i < SLOTS; i++)
      if ((this.#seconds[i] ?? -1) >= oldest) sum += this.#counts[i] ?? 0;
    return sum;
  }

  /**
   * Milliseconds until the window's total drops to at most `allowed`, as its oldest seconds
   * slide out; 0 when it already has.
   */
  waitUntilAtMost(now: number, allowed: number): number {
    let total = this.total(now);
    if (total <= allowed) return 0;
    const current = Math.floor(now / SLOT_MS);
    for (let second = current - SLOTS + 1; second <= current; second++) {
      const slot = ((second % SLOTS) + SLOTS) % SLOTS;
      if (this.#seconds[slot] === second) total -= this.#counts[slot] ?? 0;
      // This second leaves the window when the clock reaches second + SLOTS.
      if (total <= allowed) return (second + SLOTS) * SLOT_MS - now;
    }
    return SLOTS * SLOT_MS;
  }
}
