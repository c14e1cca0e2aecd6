import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PrivateRedis, privateRedisAvailable, startPrivateRedis } from "./private-services.ts";
import { newRedisPrefix } from "./redis-support.ts";
import { auth, eventuallyAsync, KEY, postJson, type Stack } from "./stack.ts";
import { startTaskStack } from "./tasks-support.ts";

// Issue 27, point 2: Redis goes away and comes back. Every Redis call is bounded and nothing
// waits on a dead Redis: rate-limited calls fail open at once, a task submit answers promptly,
// a cache_control request to a Gemini model is served (the registry is per instance
// meanwhile), one warning says so, a metric counts it, and Redis is used again once it is back.
// The Redis is the test's own (restarting the shared one would disturb other runs).

const RATED = "sk-test-redis-rated";
const LONG = "The quick brown fox jumps over the lazy dog. ".repeat(600);

const available = privateRedisAvailable();

describe.skipIf(!available)("a Redis outage", () => {
  let redis: PrivateRedis;
  let stack: Stack;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    stack = await startTaskStack({
      redis_url: redis.url,
      redis_prefix: newRedisPrefix("outage"),
      metrics: { enabled: true },
      tokens: [
        { key: KEY, user: "alice", unlimited: true },
        // Limited: every call of this key asks Redis for its window.
        { key: RATED, user: "alice", unlimited: true, rate_limit: { rpm: 3 } },
      ],
    });
  }, 60_000);

  afterAll(async () => {
    // Closing is bounded whether Redis is up (the test restarts it) or not (it failed midway).
    await stack?.close();
    await redis?.stop();
  }, 60_000);

  const chat = (key: string) =>
    postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      { model: "txtA-5", messages: [{ role: "user", content: "hi" }] },
      auth(key),
    );
  /** Batches of four limited calls until one is refused (bounded): the statuses of the last. */
  const limited = () =>
    eventuallyAsync(
      async () => {
        const statuses = [];
        for (let i = 0; i < 4; i++) statuses.push((await chat(RATED)).status);
        return statuses;
      },
      (statuses) => statuses.includes(429),
      20_000,
    );
  const warnings = () =>
    stack.logs().filter((line) => String(line["msg"]).startsWith("Redis unavailable"));

  it("fails open fast, answers submits and cached calls, warns once, and recovers", async () => {
    // Up: the limit holds (3 a minute). On a loaded machine one Redis call may pass its 500 ms
    // bound, which fails open for a moment (and says so): the limit then shows a call later.
    expect(await limited()).toContain(429);
    const backs = () =>
      stack.logs().filter((line) => String(line["msg"]).startsWith("Redis is back")).length;
    // A transient fail-open is over once Redis is said to be back: the outage below is a new one.
    await eventuallyAsync(
      async () => {
        // A limited call reaches Redis, and its success ends a transient outage.
        await chat(RATED);
        return warnings().length === backs();
      },
      (settled) => settled,
      20_000,
    );
    const base = warnings().length;

    await redis.stop();

    // Limits fail open, and quickly: 20 calls in a row that would each have waited on Redis
    // (250 ms to 2 s apiece before) take a few seconds at most even on a busy machine.
    const started = Date.now();
    const during = [];
    for (let i = 0; i < 20; i++) during.push((await chat(RATED)).status);
    const elapsed = Date.now() - started;
    expect(during.every((status) => status === 200)).toBe(true);
    expect(elapsed).toBeLessThan(8_000);

    // A task submit answers promptly: accepted (its row is due; the sweep runs it) — not a hang.
    const submitStarted = Date.now();
    const submit = await postJson(
      `${stack.gateway.url}/v1/images/generations`,
      { model: "txtA-image-2", prompt: "a cat" },
      auth(),
    );
    expect(submit.status).toBe(200);
    expect(Date.now() - submitStarted).toBeLessThan(8_000);

    // The cache never fails a request: a Gemini cache_control call is served.
    const cached = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      {
        model: "txtC-2.5-pro",
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: LONG, cache_control: { type: "ephemeral" } }],
          },
          { role: "user", content: "Summarise in one word." },
        ],
      },
      auth(),
    );
    expect(cached.status).toBe(200);

    // One warning for the whole outage, and the metric counts the calls that went without.
    expect(warnings().length - base).toBe(1);
    const metrics = await (await fetch(`${stack.gateway.url}/metrics`)).text();
    expect(metrics).toMatch(/interlingua_redis_failures_total\{operation="rate-limit"\} [1-9]/);
    expect(metrics).toMatch(/interlingua_redis_up 0/);
    const ready = await fetch(`${stack.gateway.url}/readyz`);
    expect(ready.status).toBe(503);
    await ready.text();

    // Back: the limit is enforced again (a fresh Redis: a new window of 3), and it says so.
    await redis.start();
    expect(await limited()).toContain(429);
    expect(backs()).toBe(base + 1);
    expect(warnings().length - base).toBe(1);
  }, 90_000);
});
