export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses traffic before letting one trial request through. */
  cooldownMs: number;
  now?: () => number;
}

interface CircuitState {
  failures: number;
  /** While now < openUntil the channel is skipped; afterwards one trial may pass (half-open). */
  openUntil: number;
}

export type CircuitPhase = "closed" | "open" | "half-open";

/**
 * One breaker for all channels, keyed by channel name. Taking a half-open trial pushes `openUntil`
 * forward by a cooldown, so a trial whose outcome is never reported cannot wedge the channel shut.
 */
export class CircuitBreaker {
  readonly #options: Required<CircuitBreakerOptions>;
  readonly #states = new Map<string, CircuitState>();

  constructor(options: CircuitBreakerOptions) {
    this.#options = { now: Date.now, ...options };
  }

  phase(key: string): CircuitPhase {
    const state = this.#states.get(key);
    if (state === undefined || state.failures < this.#options.failureThreshold) return "closed";
    return this.#options.now() < state.openUntil ? "open" : "half-open";
  }

  /** Whether a request may go to this channel now; a half-open channel admits one trial. */
  tryAcquire(key: string): boolean {
    const phase = this.phase(key);
    if (phase === "closed") return true;
    if (phase === "open") return false;
    const state = this.#states.get(key)!;
    state.openUntil = this.#options.now() + this.#options.cooldownMs;
    return true;
  }

  onSuccess(key: string): void {
    this.#states.delete(key);
  }

  onFailure(key: string): void {
    const state = this.#states.get(key) ?? { failures: 0, openUntil: 0 };
    state.failures += 1;
    if (state.failures >= this.#options.failureThreshold) {
      state.openUntil = this.#options.now() + this.#options.cooldownMs;
    }
    this.#states.set(key, state);
  }
}
