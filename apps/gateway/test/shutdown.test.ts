import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { startProviderSim } from "@interlingua/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateConfig } from "../src/config/load-config.ts";
import { createLogger } from "../src/log/logger.ts";
import { MemoryWorkQueue } from "../src/queue/memory-work-queue.ts";
import { startGateway } from "../src/start-gateway.ts";
import { openStore } from "../src/storage/open-store.ts";
import { type GatewayChild, killAll, startGatewayChild } from "./gateway-child.ts";

// SIGTERM on a real `interlingua serve` process: it stops accepting connections, lets an open
// stream finish (up to shutdown.drain_ms), writes the usage, and exits 0. /healthz and /readyz
// answer without a key.

const MODEL = "txtA-5-mini";
const children: GatewayChild[] = [];
let sim: Awaited<ReturnType<typeof startProviderSim>>;
let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "gw-shutdown-"));
  sim = await startProviderSim({ port: 0, record: false });
});

afterAll(async () => {
  await killAll(children);
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

const configFor = (name: string, drainMs: number) => ({
  listen: { host: "127.0.0.1", port: 0 },
  database_url: `sqlite:${join(dir, name, "gw.db")}`,
  files_dir: join(dir, name, "files"),
  shutdown: { drain_ms: drainMs },
  users: [{ id: "u", quota: 100_000_000 }],
  tokens: [{ key: "sk-shutdown", user: "u", quota: 100_000_000 }],
  channels: [
    { name: "sim", protocol: "openai", base_url: sim.url, api_key: "k-sim-1", models: [MODEL] },
  ],
});

const openStream = (url: string, text: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer sk-shutdown", "content-type": "application/json" },
    body: JSON.stringify({
      model: MODEL,
      stream: true,
      messages: [{ role: "user", content: text }],
    }),
  });

/** Reads a body to its end, or to its error; returns the text and whether it ended cleanly. */
async function readAll(
  body: ReadableStream<Uint8Array>,
): Promise<{ text: string; clean: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, clean: true };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, clean: false };
  }
}

/** /readyz until it answers 503 (the signal may take a moment to arrive); bounded. */
async function eventuallyReady(
  url: string,
): Promise<{ status: number; body: { checks: Record<string, string> } }> {
  for (let i = 0; i < 40; i++) {
    const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
    const body = (await response.json()) as { checks: Record<string, string> };
    if (response.status === 503) return { status: response.status, body };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error("readiness never turned 503");
}

const usageRows = async (name: string) => {
  const store = await openStore(`sqlite:${join(dir, name, "gw.db")}`);
  try {
    return (await store.queryLogs({ userId: "u" }, { offset: 0, limit: 10 })).items;
  } finally {
    await store.close();
  }
};

describe("health and graceful shutdown of a gateway process", () => {
  it("answers /healthz and /readyz without a key", async () => {
    const gateway = await startGatewayChild(dir, "health", configFor("health", 1_000), children);
    const live = await fetch(`${gateway.url}/healthz`);
    expect([live.status, await live.json()]).toEqual([200, { status: "ok" }]);
    const ready = await fetch(`${gateway.url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: "ready", checks: { database: "ok", migrations: "ok", shutdown: "ok" } },
    ]);
    // A migration this build knows is missing from the database: not ready, and it says which.
    const db = new DatabaseSync(join(dir, "health", "gw.db"));
    const last = db.prepare("SELECT max(version) AS v FROM schema_migrations").get() as {
      v: number;
    };
    db.prepare("DELETE FROM schema_migrations WHERE version = ?").run(last.v);
    db.close();
    const behind = await fetch(`${gateway.url}/readyz`);
    expect(behind.status).toBe(503);
    expect(await behind.json()).toEqual({
      status: "not ready",
      checks: {
        database: "ok",
        migrations: `pending: ${last.v} (run interlingua migrate)`,
        shutdown: "ok",
      },
    });
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    gateway.process.kill("SIGTERM");
    expect(await gateway.exited).toBe(0);
  });

  it("SIGTERM: refuses new connections, finishes the open stream, writes its usage, exits 0", async () => {
    const gateway = await startGatewayChild(dir, "drain", configFor("drain", 10_000), children);
    // About 20 chunks 100 ms apart: two seconds of stream still to come at SIGTERM.
    const stream = await openStream(gateway.url, "[[len:60]] [[fault:chunk-delay=100]] go");
    expect(stream.status).toBe(200);
    const reading = readAll(stream.body!);
    await new Promise((resolve) => setTimeout(resolve, 150));
    const signalled = Date.now();
    gateway.process.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 200));
    // No longer accepting: a new connection is refused while the stream goes on.
    await expect(fetch(`${gateway.url}/healthz`)).rejects.toThrow();
    const { text, clean } = await reading;
    expect(clean).toBe(true);
    expect(text).toContain("data: [DONE]");
    expect(Date.now() - signalled).toBeGreaterThan(500);
    expect(await gateway.exited).toBe(0);
    const rows = await usageRows("drain");
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ stream: true, status: 200 });
    expect(rows[0]?.completionTokens).toBeGreaterThan(0);
  }, 90_000);

  it("SIGTERM with shutdown.unready_ms: /readyz says draining while it still serves, then it drains", async () => {
    const config = {
      ...configFor("unready", 1_000),
      shutdown: { drain_ms: 1_000, unready_ms: 1_500 },
    };
    const gateway = await startGatewayChild(dir, "unready", config, children);
    expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
    gateway.process.kill("SIGTERM");
    // Still accepting new connections: readiness answers, and says why it is not ready.
    const draining = await eventuallyReady(gateway.url);
    expect(draining.status).toBe(503);
    expect(draining.body.checks.shutdown).toBe("draining");
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    expect(await gateway.exited).toBe(0);
  }, 90_000);

  it("SIGTERM: cuts a stream still open after drain_ms, still writes its usage, exits 0", async () => {
    const gateway = await startGatewayChild(dir, "cut", configFor("cut", 300), children);
    // Minutes of stream: far past the 300 ms bound.
    const stream = await openStream(gateway.url, "[[len:2000]] [[fault:chunk-delay=200]] go");
    expect(stream.status).toBe(200);
    const reading = readAll(stream.body!);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const signalled = Date.now();
    gateway.process.kill("SIGTERM");
    const { text } = await reading;
    expect(text).not.toContain("data: [DONE]");
    expect(await gateway.exited).toBe(0);
    // The bound, plus the time to cancel the upstream and flush the usage, on a loaded machine:
    // the stream itself would run for minutes.
    expect(Date.now() - signalled).toBeLessThan(15_000);
    const rows = await usageRows("cut");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.stream).toBe(true);
  }, 90_000);
});

describe("readiness with Redis configured", () => {
  it("is 503 naming Redis while Redis is unreachable; liveness stays 200", async () => {
    const parsed = validateConfig({
      listen: { host: "127.0.0.1", port: 0 },
      database_url: "sqlite::memory:",
      // Nothing listens on port 1.
      redis_url: "redis://127.0.0.1:1",
      files_dir: join(dir, "redis-down", "files"),
      users: [{ id: "u", quota: 1 }],
      tokens: [{ key: "sk-r", user: "u", quota: 1 }],
      channels: [
        { name: "sim", protocol: "openai", base_url: sim.url, api_key: "k-sim-1", models: [MODEL] },
      ],
    });
    if (!parsed.ok) throw new Error(parsed.errors.join("\n"));
    const gateway = await startGateway(parsed.config, {
      logger: createLogger({ level: "silent" }),
      accounting: false,
      // BullMQ would wait for Redis to start at all: this test is about the shared state only.
      queue: new MemoryWorkQueue({}),
    });
    try {
      const ready = await fetch(`${gateway.url}/readyz`);
      expect(ready.status).toBe(503);
      const body = (await ready.json()) as { status: string; checks: Record<string, string> };
      expect(body.status).toBe("not ready");
      expect(body.checks["database"]).toBe("ok");
      expect(body.checks["redis"]).toMatch(/^unreachable: /);
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    } finally {
      await gateway.close();
    }
  }, 20_000);
});
