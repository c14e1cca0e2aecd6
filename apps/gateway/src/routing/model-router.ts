import { invalidRequest, modelNotFound, permissionDenied } from "@interlingua/errors";
import { canonicalModelId, type Endpoint, findModel } from "../catalogue/model-catalogue.ts";
import type { Channel } from "./channel.ts";
import { ChannelHealth } from "./channel-health.ts";
import { ChannelSlots } from "./channel-slots.ts";
import { breakerKey, type CircuitBreaker } from "./circuit-breaker.ts";

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
