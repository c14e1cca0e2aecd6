import { describe, expect, it } from "vitest";
import { toChannel } from "./channel.ts";
import {
  type Acquired,
  breakerKey,
  ChannelHealth,
  ChannelSlots,
  CircuitBreaker,
  ModelRouter,
  weightedOrder,
} from "./model-router.ts";

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

describe("ChannelHealth", () => {
  it("reports error rate and latency percentiles over the last calls only", () => {
    let now = 1_000_000;
    const health = new ChannelHealth(10, () => now);
    expect(health.view("oa")).toEqual({
      channel: "oa",
      calls: 0,
      errors: 0,
      error_rate: 0,
      latency_p50_ms: null,
      latency_p95_ms: null,
      last_error_at: null,
    });
    // Ten old failures, pushed out of the window by ten newer calls (two of them failures).
    for (let i = 0; i < 10; i++) health.record("oa", false, 1_000);
    for (let i = 1; i <= 10; i++) {
      now += 1_000;
      health.record("oa", i % 5 !== 0, i * 10);
    }
    const view = health.view("oa");
    expect(view.calls).toBe(10);
    expect(view.errors).toBe(2);
    expect(view.error_rate).toBeCloseTo(0.2);
    expect(view.latency_p50_ms).toBe(60);
    expect(view.latency_p95_ms).toBe(100);
    expect(view.last_error_at).toBe(Math.floor(now / 1000));
    expect(health.view("an").calls).toBe(0);
  });
});

const limits = { name: "c", maxConnections: 2, queueTimeoutMs: 60_000 };
const held = async (slot: Promise<Acquired> | Acquired) => {
  const got = await slot;
  if (!got.ok) throw new Error(`no slot: ${got.reason}`);
  return got.release;
};

describe("ChannelSlots", () => {
  it("grants up to max_connections at once, then queues first come, first served", async () => {
    const slots = new ChannelSlots();
    const a = await held(slots.acquire(limits));
    await held(slots.acquire(limits));
    const order: string[] = [];
    const inLine = (name: string) =>
      Promise.resolve(slots.acquire(limits)).then((got) => {
        order.push(name);
        return got;
      });
    const third = inLine("third");
    const fourth = inLine("fourth");
    expect(slots.waiting().get("c")).toBe(2);
    a();
    a(); // a second release frees nothing more
    const granted = await third;
    expect(granted.ok).toBe(true);
    expect(order).toEqual(["third"]);
    expect(slots.inUse().get("c")).toBe(2);
    expect(slots.waiting().get("c")).toBe(1);
    if (granted.ok) granted.release();
    expect((await fourth).ok).toBe(true);
    expect(order).toEqual(["third", "fourth"]);
  });

  it("a newcomer does not jump the line while others wait", async () => {
    const slots = new ChannelSlots();
    const one = { ...limits, maxConnections: 1 };
    const first = await held(slots.acquire(one));
    const waiting = slots.acquire(one);
    first();
    // The freed slot went to the waiting call: the newcomer waits behind it.
    const newcomer = slots.acquire(one);
    expect(newcomer).toBeInstanceOf(Promise);
    const release = await held(waiting);
    release();
    expect((await newcomer).ok).toBe(true);
  });

  it("gives way after the queue time, and leaves the line", async () => {
    const slots = new ChannelSlots();
    const quick = { name: "q", maxConnections: 1, queueTimeoutMs: 20 };
    await held(slots.acquire(quick));
    expect(await slots.acquire(quick)).toEqual({ ok: false, reason: "queue-timeout" });
    expect(slots.waiting().get("q")).toBe(0);
    expect(slots.inUse().get("q")).toBe(1);
  });

  it("a call whose client left stops waiting at once", async () => {
    const slots = new ChannelSlots();
    const one = { ...limits, maxConnections: 1 };
    await held(slots.acquire(one));
    const abort = new AbortController();
    const waiting = slots.acquire(one, abort.signal);
    abort.abort();
    expect(await waiting).toEqual({ ok: false, reason: "aborted" });
    expect(slots.waiting().get("c")).toBe(0);
    expect(slots.acquire(one, abort.signal)).toEqual({ ok: false, reason: "aborted" });
  });

  it("channels have separate lines", async () => {
    const slots = new ChannelSlots();
    const one = { name: "x", maxConnections: 1, queueTimeoutMs: 60_000 };
    await held(slots.acquire(one));
    expect((await slots.acquire({ ...one, name: "y" })).ok).toBe(true);
  });
});
