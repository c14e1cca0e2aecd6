import { invalidRequest, modelNotFound, permissionDenied } from "@interlingua/errors";
import { canonicalModelId, type Endpoint, findModel } from "../catalogue/model-catalogue.ts";
import type { Channel } from "./channel.ts";

// How a model's request chooses its channels: the route, its order, and the state each
// channel's choice reads (circuit breakers, connection slots, recent health).

export interface RouteCandidate {
  readonly channel: Channel;
  /** The model id sent upstream (the channel's mapping of the gateway id). */
  readonly upstreamModel: string;
}

export interface ModelRoute {
  /** The gateway id the channels list (the requested id, or the main id of an alias). */
  readonly gatewayModel: string;
  readonly candidates: readonly RouteCandidate[];
}

/** Finds the channels serving a model id and orders them for one request. */
export class ModelRouter {
  readonly #byModel = new Map<string, RouteCandidate[]>();
  readonly #breaker: CircuitBreaker;
  readonly #random: () => number;
  /** Connections each channel holds now, and the calls waiting for one. */
  readonly slots = new ChannelSlots();
  readonly #channels: readonly Channel[];
  /** The last calls of each channel, for the admin health view. */
  readonly health = new ChannelHealth();

  constructor(
    channels: readonly Channel[],
    breaker: CircuitBreaker,
    random: () => number = Math.random,
  ) {
    this.#breaker = breaker;
    this.#random = random;
    this.#channels = channels;
    for (const channel of channels) {
      for (const [gatewayId, upstreamModel] of channel.models) {
        const list = this.#byModel.get(gatewayId) ?? [];
        list.push({ channel, upstreamModel });
        this.#byModel.set(gatewayId, list);
      }
    }
  }

  /** The configured channels, in order. */
  channels(): readonly Channel[] {
    return this.#channels;
  }

  /** Every gateway model id some channel serves. */
  modelIds(): string[] {
    return [...this.#byModel.keys()];
  }

  /** The channels for a model (exact id first, then the catalogue's main id for an alias). */
  resolve(model: string): ModelRoute | undefined {
    for (const id of [model, canonicalModelId(model)]) {
      const candidates = this.#byModel.get(id);
      if (candidates !== undefined) return { gatewayModel: id, candidates };
    }
    return undefined;
  }

  /**
   * The attempt order for one request: priority tiers, weighted inside a tier, channels with an
   * open circuit left out. The caller acquires each channel (`breaker.tryAcquire`) only when it
   * actually tries it, so an untried half-open channel keeps its trial.
   */
  plan(route: ModelRoute): RouteCandidate[] {
    const ordered = weightedOrder(
      route.candidates.map((c) => ({
        ...c,
        priority: c.channel.priority,
        weight: c.channel.weight,
      })),
      this.#random,
    );
    return ordered.filter(
      (c) => this.#breaker.phase(breakerKey(c.channel.name, c.upstreamModel)) !== "open",
    );
  }

  get breaker(): CircuitBreaker {
    return this.#breaker;
  }
}

/**
 * The channels serving `model` for a caller on `endpoint`; otherwise the refusal every endpoint
 * throws alike: 404 when no channel serves it, 403 when the key may not use it, 400 when the catalogue
 * keeps it for another endpoint. What a channel must speak is the caller's own rule.
 */
export function routeForEndpoint(
  router: ModelRouter,
  allowed: ReadonlySet<string> | undefined,
  model: string,
  endpoint: Endpoint,
): ModelRoute {
  const route = router.resolve(model);
  if (route === undefined) throw modelNotFound(model);
  if (allowed !== undefined && !allowed.has(model) && !allowed.has(route.gatewayModel)) {
    throw permissionDenied(`this API key may not use model ${model}`);
  }
  const entry = findModel(route.gatewayModel);
  if (entry !== undefined && !entry.endpoints.includes(endpoint)) {
    throw invalidRequest(
      `model ${model} is a ${entry.kind} model and is not served on this endpoint`,
      "model",
    );
  }
  return route;
}

/**
 * Orders items by ascending priority tier, and inside a tier by a weighted random draw without
 * replacement (Efraimidis–Spirakis: sort by u^(1/w) descending), so the first pick is
 * proportional to weight and the rest of the tier follows as fallbacks.
 */
export function weightedOrder<T extends { priority: number; weight: number }>(
  items: readonly T[],
  random: () => number = Math.random,
): T[] {
  const keyed = items.map((item) => ({ item, key: random() ** (1 / item.weight) }));
  keyed.sort((a, b) => a.item.priority - b.item.priority || b.key - a.key);
  return keyed.map((k) => k.item);
}

// The circuit breakers that leave a failing (channel, model) out of a plan.

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

// Connections one channel may hold at once, and a bounded wait for one. An HTTP/1.1 upstream
// serves one call per connection, so a stream holds its slot until its body ends. A call that
// finds every slot taken waits in line for at most the channel's queue time, then gives way:
// the caller tries the next channel, or answers 503 with Retry-After. Nothing waits unbounded.

export interface SlotLimits {
  readonly name: string;
  /** Calls in flight on the channel at once. */
  readonly maxConnections: number;
  /** How long a call waits in line for a slot before it gives way (ms). */
  readonly queueTimeoutMs: number;
}

/** Frees the slot; calling it again does nothing. */
export type Release = () => void;

export type Acquired =
  | { readonly ok: true; readonly release: Release }
  | { readonly ok: false; readonly reason: "queue-timeout" | "aborted" };

interface Waiter {
  grant(release: Release): void;
}

interface Line {
  inUse: number;
  readonly waiting: Waiter[];
}

export class ChannelSlots {
  readonly #lines = new Map<string, Line>();

  #line(name: string): Line {
    let line = this.#lines.get(name);
    if (line === undefined) {
      line = { inUse: 0, waiting: [] };
      this.#lines.set(name, line);
    }
    return line;
  }

  /** A slot on `channel` now, or after a wait in line (first come, first served). */
  acquire(channel: SlotLimits, signal?: AbortSignal): Promise<Acquired> | Acquired {
    const line = this.#line(channel.name);
    if (signal?.aborted === true) return { ok: false, reason: "aborted" };
    if (line.inUse < channel.maxConnections && line.waiting.length === 0) {
      line.inUse++;
      return { ok: true, release: this.#releaser(line) };
    }
    return new Promise<Acquired>((resolve) => {
      const waiter: Waiter = {
        grant: (release) => {
          settle();
          resolve({ ok: true, release });
        },
      };
      const leave = (reason: "queue-timeout" | "aborted") => {
        const at = line.waiting.indexOf(waiter);
        if (at >= 0) line.waiting.splice(at, 1);
        settle();
        resolve({ ok: false, reason });
      };
      const onAbort = () => leave("aborted");
      const timer = setTimeout(() => leave("queue-timeout"), channel.queueTimeoutMs);
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      line.waiting.push(waiter);
    });
  }

  #releaser(line: Line): Release {
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      // The slot passes straight to the next in line, so a newcomer cannot jump the queue.
      const next = line.waiting.shift();
      if (next !== undefined) next.grant(this.#releaser(line));
      else line.inUse--;
    };
  }

  /** Calls waiting for a slot, by channel (the metric). */
  waiting(): Map<string, number> {
    return new Map([...this.#lines].map(([name, line]) => [name, line.waiting.length]));
  }

  /** Slots taken, by channel. */
  inUse(): Map<string, number> {
    return new Map([...this.#lines].map(([name, line]) => [name, line.inUse]));
  }
}

// The last calls of each channel, for the health view.

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
