/** One call's outcome at a channel, as the attempt loop saw it. */
interface Outcome {
  ok: boolean;
  latencyMs: number;
  at: number;
}

export interface ChannelHealthView {
  channel: string;
  /** Outcomes in the window (the last `window` calls). */
  calls: number;
  errors: number;
  /** errors / calls, 0 when there were no calls. */
  error_rate: number;
  /** Median and 95th percentile of the window's latencies, null without calls. */
  latency_p50_ms: number | null;
  latency_p95_ms: number | null;
  last_error_at: number | null;
}

const percentile = (sorted: number[], p: number): number | null =>
  sorted.length === 0
    ? null
    : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/**
 * The last calls of each channel (in memory, per instance): what the admin view of channel health
 * reports as error rate and latency. Failures counted are those the breaker counts too
 * (unhealthy upstream answers), successes every answered call.
 */
export class ChannelHealth {
  readonly #window: number;
  readonly #now: () => number;
  readonly #outcomes = new Map<string, Outcome[]>();

  constructor(window = 100, now: () => number = Date.now) {
    this.#window = window;
    this.#now = now;
  }

  record(channel: string, ok: boolean, latencyMs: number): void {
    const list = this.#outcomes.get(channel) ?? [];
    list.push({ ok, latencyMs, at: this.#now() });
    if (list.length > this.#window) list.splice(0, list.length - this.#window);
    this.#outcomes.set(channel, list);
  }

  view(channel: string): ChannelHealthView {
    const list = this.#outcomes.get(channel) ?? [];
    const errors = list.filter((o) => !o.ok);
    const latencies = list.map((o) => o.latencyMs).sort((a, b) => a - b);
    return {
      channel,
      calls: list.length,
      errors: errors.length,
      error_rate: list.length === 0 ? 0 : errors.length / list.length,
      latency_p50_ms: percentile(latencies, 50),
      latency_p95_ms: percentile(latencies, 95),
      last_error_at: errors.length === 0 ? null : Math.floor(errors.at(-1)!.at / 1000),
    };
  }
}
