import type { Logger } from "../log/logger.ts";

/** What the gateway does without Redis, said once per outage (docs/scale-out.md, "Redis down"). */
const FAIL_OPEN =
  "Redis unavailable: rate limits are not enforced, Gemini caches are kept per instance, token changes elsewhere show after the token ttl, task and webhook jobs wait for the database sweep";

/** While Redis is down, hot-path callers try it at most this often (the rest skip it at once). */
const PROBE_EVERY_MS = 1_000;

export interface RedisOutageOptions {
  readonly log?: Logger;
  /** Each failed Redis call, by what it was for (the `interlingua_redis_failures_total` metric). */
  readonly onFailure?: (operation: string) => void;
}

/**
 * Whether Redis is failing now. Every failed call reports here; the first of an outage logs one
 * warning, later ones only count, and the first success (or reconnect) after it logs the end.
 */
export class RedisOutage {
  readonly #log: Logger | undefined;
  readonly #onFailure: (operation: string) => void;
  #down = false;
  #since = 0;
  #failures = 0;
  #lastTry = 0;

  constructor(options: RedisOutageOptions = {}) {
    this.#log = options.log;
    this.#onFailure = options.onFailure ?? (() => {});
  }

  get down(): boolean {
    return this.#down;
  }

  /**
   * Whether a hot-path call should skip Redis now (and fail open at once): during an outage,
   * all but one call a second do, so a hung Redis costs one command timeout a second, not one
   * per request.
   */
  skip(): boolean {
    if (!this.#down) return false;
    const now = Date.now();
    if (now - this.#lastTry < PROBE_EVERY_MS) return true;
    this.#lastTry = now;
    return false;
  }

  failed(operation: string, error: unknown): void {
    this.#onFailure(operation);
    this.#failures++;
    if (this.#down) return;
    this.#down = true;
    this.#since = Date.now();
    this.#lastTry = this.#since;
    this.#log?.warn({ err: error, operation }, FAIL_OPEN);
  }

  ok(): void {
    if (!this.#down) return;
    this.#down = false;
    this.#log?.warn(
      { failedCalls: this.#failures, seconds: Math.round((Date.now() - this.#since) / 1000) },
      "Redis is back: limits, the shared cache registry and queues are shared again",
    );
    this.#failures = 0;
  }
}
