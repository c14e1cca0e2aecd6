import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { UsageLogInput } from "../storage/store.ts";

// Prometheus metrics of one gateway (config `metrics.enabled`). Label sets stay small and bounded:
// route patterns (never raw paths), endpoint names, configured models and channels, statuses.
// Label children are looked up once per label combination and kept, so a request costs a map
// lookup and an increment per metric.

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const LAG_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** One upstream try as `callChannel` records it (upstream/call-channel.ts AttemptRecord). */
export interface AttemptSample {
  readonly channel: string;
  readonly outcome: string;
}

/** Sources read when Prometheus scrapes (never on the request path). */
export interface MetricSources {
  /** Background jobs not yet done: the in-process queue's timers, or BullMQ's job counts. */
  queueDepth?: () => number | undefined | Promise<number | undefined>;
  /** Calls holding quota, neither settled nor refunded yet. */
  openHolds?: () => number | undefined;
  /** Task rows not finished yet, by status (one query per scrape). */
  openTasks?: () => Promise<{ pending: number; processing: number } | undefined>;
  /** 1 while Redis answers, 0 during an outage; undefined without Redis. */
  redisUp?: () => number | undefined;
  /** Generation calls waiting for a connection slot, and slots taken, by channel. */
  upstreamSlots?: () => { waiting: Map<string, number>; inUse: Map<string, number> } | undefined;
}

const SECOND = 1000;

/** Child lookups per label combination, built on first use. */
function cached<T>(make: (key: string, labels: string[]) => T) {
  const children = new Map<string, T>();
  return (...labels: string[]): T => {
    const key = labels.join("\u0000");
    let child = children.get(key);
    if (child === undefined) {
      child = make(key, labels);
      children.set(key, child);
    }
    return child;
  };
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #requests = new Counter({
    name: "interlingua_http_requests_total",
    help: "HTTP requests answered, by route pattern, method, endpoint format and status",
    labelNames: ["route", "method", "format", "status"] as const,
    registers: [this.registry],
  });
  readonly #duration = new Histogram({
    name: "interlingua_http_request_duration_seconds",
    help: "Time until the whole response was ready (streams: see interlingua_stream_duration_seconds)",
    labelNames: ["route", "method", "format"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #ttfb = new Histogram({
    name: "interlingua_time_to_first_byte_seconds",
    help: "Time until the response's status and headers were ready (a generation stream commits on the upstream's first chunk)",
    labelNames: ["route", "method", "format"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #calls = new Counter({
    name: "interlingua_calls_total",
    help: "Calls written to the usage log, by endpoint, model, channel and status",
    labelNames: ["endpoint", "model", "channel", "status"] as const,
    registers: [this.registry],
  });
  readonly #tokens = new Counter({
    name: "interlingua_tokens_total",
    help: "Tokens of written usage rows, by model, channel and kind (prompt, completion, cached, cache_write, thinking)",
    labelNames: ["model", "channel", "kind"] as const,
    registers: [this.registry],
  });
  readonly #credits = new Counter({
    name: "interlingua_credits_total",
    help: "Credits charged in written usage rows, by model and channel",
    labelNames: ["model", "channel"] as const,
    registers: [this.registry],
  });
  readonly #attempts = new Counter({
    name: "interlingua_upstream_attempts_total",
    help: "Upstream attempts by channel and outcome (ok, status, network, timeout, skipped-open-circuit...)",
    labelNames: ["channel", "outcome"] as const,
    registers: [this.registry],
  });
  readonly #upstreamErrors = new Counter({
    name: "interlingua_upstream_errors_total",
    help: "Upstream attempts that failed (anything but ok or a skipped open circuit), by channel and outcome",
    labelNames: ["channel", "outcome"] as const,
    registers: [this.registry],
  });
  readonly #fallbacks = new Counter({
    name: "interlingua_fallbacks_total",
    help: "Generation requests answered by a channel other than the first one tried, by endpoint and model",
    labelNames: ["endpoint", "model"] as const,
    registers: [this.registry],
  });
  readonly #openStreams = new Gauge({
    name: "interlingua_open_streams",
    help: "Generation streams being relayed now, by endpoint",
    labelNames: ["endpoint"] as const,
    registers: [this.registry],
  });
  readonly #streamDuration = new Histogram({
    name: "interlingua_stream_duration_seconds",
    help: "Generation streams: from the start of the call until the upstream ended or was drained",
    labelNames: ["endpoint"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly #billingLag = new Histogram({
    name: "interlingua_billing_batch_lag_seconds",
    help: "Age of a usage row when its charge batch was written (settlement lag)",
    buckets: LAG_BUCKETS,
    registers: [this.registry],
  });
  readonly #redisFailures = new Counter({
    name: "interlingua_redis_failures_total",
    help: "Redis calls that failed or were skipped during an outage (the gateway failed open), by what they were for",
    labelNames: ["operation"] as const,
    registers: [this.registry],
  });
  readonly #billingBatches = new Counter({
    name: "interlingua_billing_batches_total",
    help: "Charge batches written",
    registers: [this.registry],
  });

  readonly #request = cached((_k, [route = "", method = "", format = "", status = ""]) =>
    this.#requests.labels(route, method, format, status),
  );
  readonly #durationOf = cached((_k, [route = "", method = "", format = ""]) =>
    this.#duration.labels(route, method, format),
  );
  readonly #ttfbOf = cached((_k, [route = "", method = "", format = ""]) =>
    this.#ttfb.labels(route, method, format),
  );
  readonly #callOf = cached((_k, [endpoint = "", model = "", channel = "", status = ""]) =>
    this.#calls.labels(endpoint, model, channel, status),
  );
  readonly #tokensOf = cached((_k, [model = "", channel = "", kind = ""]) =>
    this.#tokens.labels(model, channel, kind),
  );
  readonly #creditsOf = cached((_k, [model = "", channel = ""]) =>
    this.#credits.labels(model, channel),
  );
  readonly #attemptOf = cached((_k, [channel = "", outcome = ""]) =>
    this.#attempts.labels(channel, outcome),
  );
  readonly #errorOf = cached((_k, [channel = "", outcome = ""]) =>
    this.#upstreamErrors.labels(channel, outcome),
  );
  readonly #fallbackOf = cached((_k, [endpoint = "", model = ""]) =>
    this.#fallbacks.labels(endpoint, model),
  );
  readonly #streamsOf = cached((_k, [endpoint = ""]) => this.#openStreams.labels(endpoint));
  readonly #streamDurationOf = cached((_k, [endpoint = ""]) =>
    this.#streamDuration.labels(endpoint),
  );

  constructor(sources: MetricSources = {}) {
    const { queueDepth, openHolds, openTasks, redisUp, upstreamSlots } = sources;
    new Gauge({
      name: "interlingua_upstream_waiting_requests",
      help: "Generation calls waiting for a free connection to a channel (max_connections reached), by channel",
      labelNames: ["channel"] as const,
      registers: [this.registry],
      collect() {
        for (const [channel, n] of upstreamSlots?.()?.waiting ?? []) this.labels(channel).set(n);
      },
    });
    new Gauge({
      name: "interlingua_upstream_connections_in_use",
      help: "Generation calls holding one of a channel's max_connections (a stream until it ends), by channel",
      labelNames: ["channel"] as const,
      registers: [this.registry],
      collect() {
        for (const [channel, n] of upstreamSlots?.()?.inUse ?? []) this.labels(channel).set(n);
      },
    });
    new Gauge({
      name: "interlingua_redis_up",
      help: "1 while Redis answers, 0 during an outage (limits fail open meanwhile); absent without Redis",
      registers: [this.registry],
      collect() {
        const up = redisUp?.();
        if (up !== undefined) this.set(up);
      },
    });
    new Gauge({
      name: "interlingua_tasks_open",
      help: "Asynchronous tasks (video, image) not finished yet, by status (from the database: the same on every instance)",
      labelNames: ["status"] as const,
      registers: [this.registry],
      async collect() {
        const open = await Promise.resolve(openTasks?.()).catch(() => undefined);
        if (open === undefined) return;
        this.labels("pending").set(open.pending);
        this.labels("processing").set(open.processing);
      },
    });
    new Gauge({
      name: "interlingua_queue_depth",
      help: "Background jobs (task polls, webhook pushes) not yet done: this instance's in-process queue, or the shared BullMQ queues (waiting, delayed, active)",
      registers: [this.registry],
      async collect() {
        // A Redis that does not answer leaves the last value: a scrape never fails on it.
        const depth = await Promise.resolve(queueDepth?.()).catch(() => undefined);
        if (depth !== undefined) this.set(depth);
      },
    });
    new Gauge({
      name: "interlingua_billing_open_holds",
      help: "Calls holding quota, neither settled nor refunded yet",
      registers: [this.registry],
      collect() {
        const open = openHolds?.();
        if (open !== undefined) this.set(open);
      },
    });
  }

  /**
   * One answered HTTP request (the middleware), `seconds` after it arrived. A relayed stream's
   * response is ready at its first byte; its whole duration is the stream hook's.
   */
  request(
    route: string,
    method: string,
    format: string,
    status: number,
    seconds: number,
    stream: boolean,
  ): void {
    this.#request(route, method, format, String(status)).inc();
    this.#ttfbOf(route, method, format).observe(seconds);
    if (!stream) this.#durationOf(route, method, format).observe(seconds);
  }

  /** A generation's upstream attempts, once they are over; `ok` when one was committed to. */
  attempts(endpoint: string, model: string, attempts: readonly AttemptSample[], ok: boolean): void {
    let tried = 0;
    for (const attempt of attempts) {
      this.#attemptOf(attempt.channel, attempt.outcome).inc();
      if (attempt.outcome === "skipped-open-circuit") continue;
      tried++;
      if (attempt.outcome !== "ok") this.#errorOf(attempt.channel, attempt.outcome).inc();
    }
    if (ok && tried > 1) this.#fallbackOf(endpoint, model).inc();
  }

  /** A generation stream starts relaying; the returned function ends it (exactly once). */
  streamOpened(endpoint: string, startedAt: number = performance.now()): () => void {
    const gauge = this.#streamsOf(endpoint);
    gauge.inc();
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      gauge.dec();
      this.#streamDurationOf(endpoint).observe((performance.now() - startedAt) / SECOND);
    };
  }

  /** Usage rows of a charge batch (or a task's end), once written. */
  usageWritten(logs: readonly UsageLogInput[], now: number): void {
    for (const log of logs) {
      const channel = log.channel ?? "";
      this.#callOf(log.endpoint, log.model, channel, String(log.status)).inc();
      if (log.promptTokens > 0) this.#tokensOf(log.model, channel, "prompt").inc(log.promptTokens);
      if (log.completionTokens > 0) {
        this.#tokensOf(log.model, channel, "completion").inc(log.completionTokens);
      }
      if (log.cachedTokens > 0) this.#tokensOf(log.model, channel, "cached").inc(log.cachedTokens);
      if (log.cacheWriteTokens > 0) {
        this.#tokensOf(log.model, channel, "cache_write").inc(log.cacheWriteTokens);
      }
      if (log.thinkingTokens > 0) {
        this.#tokensOf(log.model, channel, "thinking").inc(log.thinkingTokens);
      }
      if (log.credits > 0) this.#creditsOf(log.model, channel).inc(log.credits);
      this.#billingLag.observe(Math.max(0, now - log.time) / SECOND);
    }
  }

  /** A Redis call failed (or was skipped during an outage); the gateway went on without it. */
  redisFailed(operation: string): void {
    this.#redisFailures.labels(operation).inc();
  }

  /** A charge batch was written. */
  batchWritten(): void {
    this.#billingBatches.inc();
  }

  /** The text exposition format, for `GET /metrics`. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
