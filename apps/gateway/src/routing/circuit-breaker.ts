export interface CircuitBreakerOptions {
  /** Consecutive channel-health failures that open the circuit. */
  failureThreshold: number;
  /** How long a freshly opened circuit refuses traffic before letting one trial through. */
  cooldownMs: number;
  /** A trial that fails doubles the cooldown, up to this (default: 30 s or `cooldownMs`). */
  maxCooldownMs?: number;
  /**
   * Distinct callers (API tokens) among those failures (default 2): one tenant whose input
   * provokes upstream errors cannot take the channel down for everyone else.
   */
  minSources?: number;
  now?: () => number;
}

interface CircuitState {
  failures: number;
  /** Who the failures came from (token ids), up to `minSources` of them. */
  sources: Set<string>;
  /** Whether the circuit opened (and has not closed since). */
  opened: boolean;
  /** While now < openUntil the route is skipped; afterwards one trial may pass (half-open). */
  openUntil: number;
  /** The cooldown the next failed trial opens the circuit for. */
  cooldownMs: number;
}

export type CircuitPhase = "closed" | "open" | "half-open";

/** A breaker key: one channel serving one upstream model (another model may be fine). */
export const breakerKey = (channel: string, model: string): string => `${channel}\u0000${model}`;

/**
 * Breakers for every (channel, model), by `breakerKey`. Taking a half-open trial pushes
 * `openUntil` forward by a cooldown, so a trial whose outcome is never reported cannot wedge the
 * route shut. Only failures that say the channel is unhealthy are reported here (see
 * `failurePolicy`): a 4xx, a reply the gateway could not translate or a client that left is not.
 */
export class CircuitBreaker {
  readonly #threshold: number;
  readonly #cooldownMs: number;
  readonly #maxCooldownMs: number;
  readonly #minSources: number;
  readonly #now: () => number;
  readonly #states = new Map<string, CircuitState>();

  constructor(options: CircuitBreakerOptions) {
    this.#threshold = options.failureThreshold;
    this.#cooldownMs = options.cooldownMs;
    this.#maxCooldownMs = Math.max(options.cooldownMs, options.maxCooldownMs ?? 30_000);
    this.#minSources = Math.max(1, options.minSources ?? 2);
    this.#now = options.now ?? Date.now;
  }

  phase(key: string): CircuitPhase {
    const state = this.#states.get(key);
    if (state === undefined || !state.opened) return "closed";
    return this.#now() < state.openUntil ? "open" : "half-open";
  }

  /** Whether a request may go this way now; a half-open route admits one trial at a time. */
  tryAcquire(key: string): boolean {
    const phase = this.phase(key);
    if (phase === "closed") return true;
    if (phase === "open") return false;
    const state = this.#states.get(key)!;
    state.openUntil = this.#now() + state.cooldownMs;
    return true;
  }

  onSuccess(key: string): void {
    this.#states.delete(key);
  }

  /** A channel-health failure (5xx, timeout, connection) of a call made for `source`. */
  onFailure(key: string, source = ""): void {
    const state = this.#states.get(key) ?? {
      failures: 0,
      sources: new Set<string>(),
      opened: false,
      openUntil: 0,
      cooldownMs: this.#cooldownMs,
    };
    this.#states.set(key, state);
    if (state.opened) {
      // A failed trial: closed for longer, up to the maximum.
      state.openUntil = this.#now() + state.cooldownMs;
      state.cooldownMs = Math.min(state.cooldownMs * 2, this.#maxCooldownMs);
      return;
    }
    state.failures += 1;
    if (state.sources.size < this.#minSources) state.sources.add(source);
    if (state.failures >= this.#threshold && state.sources.size >= this.#minSources) {
      state.opened = true;
      state.openUntil = this.#now() + state.cooldownMs;
      state.cooldownMs = Math.min(state.cooldownMs * 2, this.#maxCooldownMs);
    }
  }

  /** Every route with a recorded failure: its phase, failures and when its cool-down ends. */
  snapshot(): {
    key: string;
    phase: CircuitPhase;
    failures: number;
    openUntil: number | null;
    cooldownMs: number;
  }[] {
    return [...this.#states].map(([key, state]) => ({
      key,
      phase: this.phase(key),
      failures: state.failures,
      openUntil: state.opened ? state.openUntil : null,
      cooldownMs: state.cooldownMs,
    }));
  }

  /** Opens a route now, as if it had failed enough (operators' and tests' switch). */
  trip(key: string): void {
    this.#states.set(key, {
      failures: this.#threshold,
      sources: new Set(),
      opened: true,
      openUntil: this.#now() + this.#cooldownMs,
      cooldownMs: this.#cooldownMs,
    });
  }
}
