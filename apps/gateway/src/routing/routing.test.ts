import { describe, expect, it } from "vitest";
import { toChannel } from "./channel.ts";
import { breakerKey, CircuitBreaker } from "./circuit-breaker.ts";
import { ModelRouter, weightedOrder } from "./model-router.ts";

const channel = (
  name: string,
  models: string[] | Record<string, string>,
  priority = 0,
  weight = 1,
) =>
  toChannel({
    name,
    protocol: "openai",
    base_url: "http://127.0.0.1:1/",
    api_key: "k",
    models,
    priority,
    weight,
    caching: true,
    max_connections: 8_192,
    queue_timeout_ms: 1_000,
  });

describe("CircuitBreaker", () => {
  it("opens after N consecutive failures, half-opens after the cooldown, closes on success", () => {
    let now = 0;
    const breaker = new CircuitBreaker({
      failureThreshold: 2,
      cooldownMs: 1000,
      minSources: 1,
      now: () => now,
    });
    breaker.onFailure("a");
    expect(breaker.phase("a")).toBe("closed");
    breaker.onFailure("a");
    expect(breaker.phase("a")).toBe("open");
    expect(breaker.tryAcquire("a")).toBe(false);
    now = 1000;
    expect(breaker.phase("a")).toBe("half-open");
    expect(breaker.tryAcquire("a")).toBe(true);
    // One trial at a time: the next request waits for the trial's outcome (or another cooldown).
    expect(breaker.tryAcquire("a")).toBe(false);
    breaker.onSuccess("a");
    expect(breaker.phase("a")).toBe("closed");
  });

  it("re-opens when the half-open trial fails, for twice as long each time up to the maximum", () => {
    let now = 0;
    const breaker = new CircuitBreaker({
      failureThreshold: 1,
      cooldownMs: 100,
      maxCooldownMs: 300,
      minSources: 1,
      now: () => now,
    });
    breaker.onFailure("a");
    now = 100;
    expect(breaker.tryAcquire("a")).toBe(true);
    breaker.onFailure("a");
    expect(breaker.phase("a")).toBe("open");
    now = 299;
    expect(breaker.phase("a")).toBe("open");
    now = 300;
    expect(breaker.tryAcquire("a")).toBe(true);
    breaker.onFailure("a");
    now = 599;
    expect(breaker.phase("a")).toBe("open");
    now = 600;
    expect(breaker.tryAcquire("a")).toBe(true);
    breaker.onFailure("a");
    // Capped: 300 ms again.
    now = 900;
    expect(breaker.phase("a")).toBe("half-open");
    breaker.onSuccess("a");
    expect(breaker.phase("a")).toBe("closed");
  });

  it("one caller alone cannot open it: failures from two callers are needed", () => {
    let now = 0;
    const breaker = new CircuitBreaker({ failureThreshold: 3, cooldownMs: 5000, now: () => now });
    for (let i = 0; i < 10; i++) breaker.onFailure("a", "token-1");
    expect(breaker.phase("a")).toBe("closed");
    breaker.onFailure("a", "token-2");
    expect(breaker.phase("a")).toBe("open");
    now = 5000;
    expect(breaker.phase("a")).toBe("half-open");
  });

  it("is kept per (channel, model): another model on the channel is not affected", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 5000 });
    const sick = breakerKey("oa", "model-x");
    breaker.onFailure(sick, "token-1");
    breaker.onFailure(sick, "token-2");
    expect(breaker.phase(sick)).toBe("open");
    expect(breaker.phase(breakerKey("oa", "model-y"))).toBe("closed");
    expect(breaker.phase(breakerKey("other", "model-x"))).toBe("closed");
  });

  it("a success resets the failure count", () => {
    const breaker = new CircuitBreaker({ failureThreshold: 2, cooldownMs: 100 });
    breaker.onFailure("a");
    breaker.onSuccess("a");
    breaker.onFailure("a");
    expect(breaker.phase("a")).toBe("closed");
  });
});

describe("weightedOrder", () => {
  it("orders tiers by ascending priority", () => {
    const items = [
      { id: "low", priority: 5, weight: 100 },
      { id: "high", priority: -1, weight: 1 },
      { id: "mid", priority: 0, weight: 1 },
    ];
    expect(weightedOrder(items).map((i) => i.id)).toEqual(["high", "mid", "low"]);
  });

  it("picks first in proportion to weight inside a tier", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const items = [
      { id: "a", priority: 0, weight: 3 },
      { id: "b", priority: 0, weight: 1 },
    ];
    let a = 0;
    const runs = 4000;
    for (let i = 0; i < runs; i++) if (weightedOrder(items, random)[0]?.id === "a") a++;
    expect(a / runs).toBeGreaterThan(0.7);
    expect(a / runs).toBeLessThan(0.8);
  });
});

describe("ModelRouter", () => {
  const breaker = new CircuitBreaker({ failureThreshold: 1, cooldownMs: 60_000 });
  const router = new ModelRouter(
    [
      channel("primary", ["txtA-5", "vidV3.1-fast"], 0),
      channel("backup", { "txtA-5": "gpt-upstream" }, 1),
      channel("custom", ["my-model"], 0),
    ],
    breaker,
  );

  it("resolves list and map entries with their upstream ids, in priority order", () => {
    const route = router.resolve("txtA-5")!;
    expect(route.gatewayModel).toBe("txtA-5");
    expect(router.plan(route).map((c) => [c.channel.name, c.upstreamModel])).toEqual([
      ["primary", "txtA-5"],
      ["backup", "gpt-upstream"],
    ]);
  });

  it("resolves a catalogue alias to the channel serving its main id", () => {
    expect(router.resolve("vidV3.1-fast-ext")?.gatewayModel).toBe("vidV3.1-fast");
  });

  it("serves models outside the catalogue when a channel lists them, and nothing else", () => {
    expect(router.resolve("my-model")?.candidates.map((c) => c.channel.name)).toEqual(["custom"]);
    expect(router.resolve("txtB-opus-4-8")).toBeUndefined();
    expect(router.modelIds().sort()).toEqual(["my-model", "txtA-5", "vidV3.1-fast"]);
  });

  it("leaves channels whose circuit for the model is open out of the plan", () => {
    breaker.trip(breakerKey("primary", "txtA-5"));
    expect(router.plan(router.resolve("txtA-5")!).map((c) => c.channel.name)).toEqual(["backup"]);
    // The channel's other model still goes there.
    expect(router.plan(router.resolve("vidV3.1-fast")!).map((c) => c.channel.name)).toEqual([
      "primary",
    ]);
    breaker.onSuccess(breakerKey("primary", "txtA-5"));
  });

  it("strips a trailing slash from base_url", () => {
    expect(router.resolve("my-model")?.candidates[0]?.channel.baseUrl).toBe("http://127.0.0.1:1");
  });
});
