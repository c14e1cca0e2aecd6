import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProviderSim } from "@interlingua/provider-sim";
import { Redis } from "ioredis";
import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../src/storage/open-store.ts";
import type { Store } from "../src/storage/store.ts";
import { type GatewayChild, killAll, startGatewayChild } from "./gateway-child.ts";
import { newRedisPrefix, REDIS_URL, redisReachable } from "./redis-support.ts";
import { dropSchema, freshSchema, POSTGRES_URL, postgresReachable } from "./storage/drivers.ts";

// Two gateway processes (`interlingua serve`) on one PostgreSQL schema and one Redis prefix,
// both routing to one provider simulator, as two instances behind a load balancer: rate limits
// are global, quota is never overspent, a token revoked on one is refused by the other within a
// second, and an instance killed mid-stream leaves no quota stuck in its leases.

const pgUp = await postgresReachable();
const redisUp = await redisReachable("scale-out");
const MODEL = "txtA-5-mini";
// Output at 62.5 USD per 1M tokens and 1e6 credits per USD: a call with max_tokens 16 holds
// 1000 credits and is charged 62.5 a token it really produced.
const PER_CALL = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(25);
  }
}

const chat = (url: string, key: string, extra: Record<string, unknown> = {}, text = "hi") =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({
      model: MODEL,
      messages: [{ role: "user", content: text }],
      max_tokens: 16,
      ...extra,
    }),
  });

const statusOf = async (response: Promise<Response>) => {
  const done = await response;
  await done.arrayBuffer();
  return done.status;
};

describe.skipIf(!pgUp || !redisUp)("two gateway instances on PostgreSQL and Redis", () => {
  const children: GatewayChild[] = [];
  const schema = freshSchema("scale");
  const prefix = newRedisPrefix("scale");
  let dir = "";
  let sim: Awaited<ReturnType<typeof startProviderSim>>;
  let a: GatewayChild;
  let b: GatewayChild;
  let db: Store;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gw-scale-"));
    sim = await startProviderSim({ port: 0 });
    const config = (name: string) => ({
      listen: { host: "127.0.0.1", port: 0 },
      database_url: `${POSTGRES_URL}?schema=${schema}`,
      redis_url: REDIS_URL,
      redis_prefix: prefix,
      files_dir: join(dir, name, "files"),
      billing: {
        unit: "Credits",
        credits_per_usd: 1_000_000,
        // A dead instance's leases are reclaimed within about 1.5 s instead of a minute.
        leases: { heartbeat_ms: 200, stale_ms: 1_000, reclaim_every_ms: 200 },
      },
      users: [
        { id: "alice", quota: 10_000_000 },
        { id: "dave", quota: 5 * PER_CALL },
        { id: "carol", quota: 100 * PER_CALL },
      ],
      tokens: [
        { key: "sk-alice-admin", user: "alice", quota: 1_000_000 },
        { key: "sk-alice-limited", user: "alice", quota: 1_000_000, rate_limit: { rpm: 6 } },
        { key: "sk-dave", user: "dave", quota: 5 * PER_CALL },
        { key: "sk-carol", user: "carol", quota: 100 * PER_CALL },
      ],
      channels: [
        {
          name: "sim",
          protocol: "openai",
          base_url: sim.url,
          api_key: "sk-sim-upstream-key-1234",
          models: [MODEL],
        },
        {
          name: "sim-gemini",
          protocol: "gemini",
          base_url: sim.url,
          api_key: "sk-sim-upstream-key-5678",
          models: ["txtC-3.6-flash"],
        },
      ],
      pricing: {
        [MODEL]: {
          input: 0,
          output: 62.5,
          cached_input: 0,
          cache_write: 0,
        },
      },
    });
    a = await startGatewayChild(dir, "a", config("a"), children);
    b = await startGatewayChild(dir, "b", config("b"), children);
    db = await openStore(POSTGRES_URL, { schema, max: 2 });
  }, 120_000);

  afterAll(async () => {
    await killAll(children);
    await db?.close();
    await sim?.close();
    const redis = new Redis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    if (pgUp) await dropSchema(schema);
    await rm(dir, { recursive: true, force: true });
  });

  it("both are live and ready: database, migrations and Redis checked", async () => {
    for (const gateway of [a, b]) {
      const live = await fetch(`${gateway.url}/healthz`);
      expect(live.status).toBe(200);
      const ready = await fetch(`${gateway.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: "ready",
        checks: { database: "ok", migrations: "ok", redis: "ok", shutdown: "ok" },
      });
    }
  });

  it("enforces a token's rpm across both instances together", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(await statusOf(chat(i % 2 === 0 ? a.url : b.url, "sk-alice-limited")));
    }
    // Each instance alone would admit 6; together they admit 6.
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
    expect(statuses.slice(0, 6)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it("never spends more quota than the token has, whatever instance takes the calls", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => statusOf(chat(i % 2 === 0 ? a.url : b.url, "sk-dave"))),
    );
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThan(0);
    // The quota ran out: the rest were refused for it, by whichever instance took them.
    expect(statuses.filter((s) => s !== 200).length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 402)).toBe(true);
    const rows = await until(async () => {
      const logs = await db.queryLogs({ userId: "dave" }, { offset: 0, limit: 100 });
      const ok = logs.items.filter((row) => row.status === 200);
      return ok.length === served ? ok : undefined;
    }, 20_000);
    const charged = rows.reduce((sum, row) => sum + row.credits, 0);
    expect(charged).toBeGreaterThan(0);
    const token = await db.findTokenByHash(await hashOf("sk-dave"));
    const user = await db.getUser("dave");
    expect(token?.used).toBe(charged);
    expect(user?.used).toBe(charged);
    expect(charged).toBeLessThanOrEqual(5 * PER_CALL);
    expect((user?.used ?? 0) + (user?.reserved ?? 0)).toBeLessThanOrEqual(5 * PER_CALL);
  });

  it("refuses on one instance, within a second, a token deleted through the other", async () => {
    const created = await fetch(`${a.url}/api/token`, {
      method: "POST",
      headers: { authorization: "Bearer sk-alice-admin", "content-type": "application/json" },
      body: JSON.stringify({ name: "victim", remain_quota: 50_000 }),
    });
    expect(created.status).toBe(200);
    const { data } = (await created.json()) as { data: { id: number; key: string } };
    // Both instances have it in memory now (their token ttl is 5 s).
    expect(await statusOf(chat(a.url, data.key))).toBe(200);
    expect(await statusOf(chat(b.url, data.key))).toBe(200);
    const deleted = await fetch(`${a.url}/api/token/${data.id}`, {
      method: "DELETE",
      headers: { authorization: "Bearer sk-alice-admin" },
    });
    expect(deleted.status).toBe(200);
    // Within the 5 s memory ttl, so only the broadcast can explain it, with room for a loaded
    // machine (the broadcast itself takes milliseconds).
    await until(
      async () => ((await statusOf(chat(b.url, data.key))) === 401 ? true : undefined),
      4_000,
    );
  });

  it("shares upstream caches: one Gemini cache for the same prefix on both instances", async () => {
    const prefix = "The quick brown fox jumps over the lazy dog. ".repeat(600);
    const body = (live: string) => ({
      contents: [
        {
          role: "user",
          parts: [{ text: prefix, cache_control: { type: "ephemeral", ttl: "5m" } }],
        },
        { role: "model", parts: [{ text: "Noted." }] },
        { role: "user", parts: [{ text: live }] },
      ],
    });
    const creates = () =>
      sim.requests.filter((r) => r.method === "POST" && r.path === "/v1beta/cachedContents");
    const cachedNames = () =>
      sim.requests
        .filter((r) => r.path.includes(":generateContent"))
        .map((r) => (r.body as { cachedContent?: string }).cachedContent);
    for (const [gateway, live] of [
      [a, "One word?"],
      [b, "Two words?"],
    ] as const) {
      const res = await fetch(`${gateway.url}/v1beta/models/txtC-3.6-flash:generateContent`, {
        method: "POST",
        headers: { authorization: "Bearer sk-alice-admin", "content-type": "application/json" },
        body: JSON.stringify(body(live)),
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // b found a's cache in Redis: one creation, and both generations used it.
    expect(creates()).toHaveLength(1);
    const names = cachedNames();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^cachedContents\//);
    expect(names[1]).toBe(names[0]);
  });

  it("a background response streamed on one instance is resumed and cancelled on the other", async () => {
    const sdk = (url: string) =>
      new OpenAI({
        apiKey: "sk-alice-admin",
        baseURL: `${url}/v1`,
        defaultHeaders: { "x-interlingua-envelope": "bare" },
        maxRetries: 0,
        timeout: 15_000,
      });
    const deltas = (events: readonly ResponseStreamEvent[]) =>
      events.map((e) => (e.type === "response.output_text.delta" ? e.delta : "")).join("");
    // Runs on a (where it was created with stream: true); its client leaves after a few words.
    const created = await sdk(a.url).responses.create({
      model: MODEL,
      input: "resume on b [[len:40]] [[fault:chunk-delay=150]]",
      max_output_tokens: 200,
      background: true,
      stream: true,
    });
    const first: ResponseStreamEvent[] = [];
    let id = "";
    for await (const event of created) {
      first.push(event);
      if (event.type === "response.created") id = event.response.id;
      if (deltas(first).split(" ").length >= 4) break;
    }
    const last = first.at(-1)?.sequence_number ?? -1;
    // b reads what a recorded, then what a makes, as a makes it (a's flushes reach b over Redis).
    const rest: ResponseStreamEvent[] = [];
    let statusAtResume = "";
    const resumed = await sdk(b.url).responses.retrieve(id, { stream: true, starting_after: last });
    for await (const event of resumed) {
      if (rest.length === 0)
        statusAtResume = (await sdk(b.url).responses.retrieve(id)).status ?? "";
      rest.push(event);
    }
    expect(statusAtResume).toBe("in_progress");
    expect(rest.map((e) => e.sequence_number)).toEqual(rest.map((_, i) => last + 1 + i));
    expect(rest.at(-1)?.type).toBe("response.completed");
    expect(
      deltas([...first, ...rest])
        .trim()
        .split(/\s+/),
    ).toHaveLength(40);

    // Cancelled through b while a runs it: a stops it, and the streams on both end at once.
    const slow = await sdk(a.url).responses.create({
      model: MODEL,
      input: "cancel on b [[len:60]] [[fault:chunk-delay=200]]",
      max_output_tokens: 200,
      background: true,
      stream: true,
    });
    let slowId = "";
    const onA: ResponseStreamEvent[] = [];
    const readingA = (async () => {
      for await (const event of slow) {
        onA.push(event);
        if (event.type === "response.created") slowId = event.response.id;
      }
    })();
    await until(async () => (deltas(onA).length > 0 ? true : undefined), 10_000);
    const onB: ResponseStreamEvent[] = [];
    const following = await sdk(b.url).responses.retrieve(slowId, { stream: true });
    const readingB = (async () => {
      for await (const event of following) onB.push(event);
    })();
    await until(async () => (onB.length > 0 ? true : undefined), 5_000);
    const started = Date.now();
    expect((await sdk(b.url).responses.cancel(slowId)).status).toBe("cancelled");
    await Promise.all([readingA, readingB]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect([...onA, ...onB].some((e) => e.type === "response.completed")).toBe(false);
    expect((await sdk(a.url).responses.retrieve(slowId)).status).toBe("cancelled");
  });

  it("loses no billing when an instance is killed mid-stream: its leases come back", async () => {
    // Three calls settled on b, then a stream cut by SIGKILL.
    for (let i = 0; i < 3; i++) expect(await statusOf(chat(b.url, "sk-carol"))).toBe(200);
    const carol = await db.findTokenByHash(await hashOf("sk-carol"));
    if (carol === undefined) throw new Error("sk-carol not seeded");
    const settled = await until(async () => {
      const logs = await db.queryLogs({ userId: "carol" }, { offset: 0, limit: 50 });
      return logs.items.length === 3
        ? logs.items.reduce((sum, row) => sum + row.credits, 0)
        : undefined;
    }, 20_000);
    expect(settled).toBeGreaterThan(0);
    const stream = await chat(
      b.url,
      "sk-carol",
      { stream: true },
      "[[len:200]] [[fault:chunk-delay=100]] tell me a long story",
    );
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();
    // b holds a lease of carol's quota now (the stream's hold came out of it).
    const held = await db.listLeases();
    expect(held.some((l) => l.kind === "token" && l.subject === String(carol.id))).toBe(true);
    b.process.kill("SIGKILL");
    expect(await b.exited).toBe("SIGKILL");
    await reader.read().catch(() => undefined);
    // a sees b's heartbeat go stale and reclaims b's leases.
    await until(async () => {
      const leases = await db.listLeases();
      return leases.some((l) => l.subject === String(carol.id) || l.subject === "carol")
        ? undefined
        : true;
    }, 20_000);
    const token = await db.getToken(carol.id);
    const user = await db.getUser("carol");
    // Everything b settled is there, nothing more is held: the cut stream's hold came back.
    expect(token).toMatchObject({ used: settled, reserved: 0, quota: 100 * PER_CALL });
    expect(user).toMatchObject({ used: settled, reserved: 0 });
    // The survivor goes on serving carol from the quota that came back.
    expect(await statusOf(chat(a.url, "sk-carol"))).toBe(200);
  }, 30_000);
});

async function hashOf(key: string): Promise<string> {
  const { keyHash } = await import("../src/auth/key-hash.ts");
  return keyHash(key);
}
