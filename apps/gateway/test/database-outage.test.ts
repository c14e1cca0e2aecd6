import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgres } from "../src/storage/postgres-connection.ts";
import {
  type PrivatePostgres,
  privatePostgresAvailable,
  startPrivatePostgres,
} from "./private-services.ts";
import { auth, eventuallyAsync, KEY, postJson, type Stack, startStack } from "./stack.ts";

// Issue 27, point 1: the database goes away under load and comes back. Nothing crashes (an
// unhandled 'error' event would fail this file), calls that need the database answer 503 with
// Retry-After in their endpoint's envelope, streams in flight finish, their usage rows are
// journaled while the database is down and written when it is back, and /readyz says so.
// The PostgreSQL is the test's own (restarting the shared one would disturb other runs).

const FRESH_KEY = "sk-test-outage-fresh";
const MESSAGES_KEY = "sk-test-outage-messages";

const available = privatePostgresAvailable();

describe.skipIf(!available)("a PostgreSQL outage", () => {
  let db: PrivatePostgres;
  let stack: Stack;
  let dataDir: string;

  beforeAll(async () => {
    db = await startPrivatePostgres();
    dataDir = mkdtempSync(join(tmpdir(), "interlingua-outage-"));
    stack = await startStack(
      {
        databaseUrl: db.url,
        users: [{ id: "alice", quota: 1_000_000_000_000 }],
        tokens: [
          { key: KEY, user: "alice", unlimited: true },
          { key: FRESH_KEY, user: "alice", unlimited: true },
          { key: MESSAGES_KEY, user: "alice", unlimited: true },
        ],
      },
      { dataDir, tokenTtlMs: 60_000 },
    );
  }, 60_000);

  afterAll(async () => {
    // The database is up again by now unless the test failed midway; close writes what is left.
    await db?.start().catch(() => undefined);
    await stack?.close();
    db?.destroy();
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("keeps streams going, answers 503 where the database is needed, and loses no usage row", async () => {
    const url = stack.gateway.url;
    // Warm: the key is looked up (and cached) and the user's lease taken while the database is up.
    const warm = await postJson(`${url}/v1/chat/completions`, {
      model: "txtA-5",
      messages: [{ role: "user", content: "warm up" }],
    });
    expect(warm.status).toBe(200);

    // Streams slow enough to outlive the stop below.
    const streams = Array.from({ length: 4 }, (_, i) =>
      fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth() },
        body: JSON.stringify({
          model: "txtA-5",
          stream: true,
          stream_options: { include_usage: true },
          messages: [{ role: "user", content: `[[fault:chunk-delay=80]] [[len:60]] stream ${i}` }],
        }),
        signal: AbortSignal.timeout(30_000),
      }).then(async (response) => ({
        status: response.status,
        requestId: response.headers.get("x-request-id"),
        text: await response.text(),
      })),
    );
    // Read below; a failure before then must not surface as an unhandled rejection.
    for (const stream of streams) stream.catch(() => undefined);
    // Each stream has started (its headers came) before the database goes away.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await db.stop();

    // A key never seen needs the database: 503 with Retry-After, in each endpoint's envelope.
    const chat = await postJson(
      `${url}/v1/chat/completions`,
      { model: "txtA-5", messages: [{ role: "user", content: "hi" }] },
      auth(FRESH_KEY),
    );
    expect(chat.status).toBe(503);
    expect(Number(chat.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(chat.json).toMatchObject({ error: { type: expect.any(String) } });
    expect(chat.text).not.toMatch(/Internal server error|ECONNREFUSED|postgres:\/\//);

    const messages = await postJson(
      `${url}/v1/messages`,
      { model: "txtB-sonnet-4-6", max_tokens: 10, messages: [{ role: "user", content: "hi" }] },
      { "x-api-key": MESSAGES_KEY, "anthropic-version": "2023-06-01" },
    );
    expect(messages.status).toBe(503);
    expect(messages.headers.get("retry-after")).not.toBeNull();
    expect(messages.json).toMatchObject({ type: "error", error: { type: expect.any(String) } });

    // A stored response (store defaults to true) is written before the call: with the key
    // cached, that write is what meets the outage, and it is an outage too (503, not a 500).
    for (const stream of [false, true]) {
      const stored = await postJson(`${url}/v1/responses`, {
        model: "txtA-5",
        input: "hi",
        stream,
      });
      expect(stored.status, `stream: ${stream}`).toBe(503);
      expect(Number(stored.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(stored.json).toMatchObject({ error: { code: 503, type: expect.any(String) } });
      expect(stored.text).not.toMatch(/ECONNREFUSED|postgres:\/\//);
    }

    // The management API needs the database for every answer: its own envelope, 503.
    const balance = await fetch(`${url}/api/user/self`, {
      headers: auth(),
      signal: AbortSignal.timeout(10_000),
    });
    expect([503, 404]).toContain(balance.status);
    if (balance.status === 503) expect(balance.headers.get("retry-after")).not.toBeNull();

    // The balance endpoints keep their own failure body: {success: false, message}, 503.
    for (const [path, prefix] of [
      ["/v1/balance", /^Failed to get token information: /],
      ["/v1/user/balance", /^Failed to get user quota: /],
    ] as const) {
      const res = await fetch(`${url}${path}`, {
        headers: auth(),
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status, path).toBe(503);
      expect(res.headers.get("retry-after"), path).not.toBeNull();
      expect(await res.json()).toEqual({ success: false, message: expect.stringMatching(prefix) });
    }

    const notReady = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) });
    expect(notReady.status).toBe(503);
    expect(((await notReady.json()) as { checks: { database: string } }).checks.database).toMatch(
      /^unreachable/,
    );

    // The streams finish whole while the database is down.
    const finished = await Promise.all(streams);
    for (const stream of finished) {
      expect(stream.status).toBe(200);
      expect(stream.text).toContain("data: [DONE]");
    }
    const ids = finished.map((s) => s.requestId as string);

    // Their settlements are journaled on disk meanwhile (a crash now would lose none).
    const journaled = await eventuallyAsync(
      async () => journalText(dataDir),
      (text) => ids.every((id) => text.includes(id)),
      10_000,
    );
    expect(journaled.length).toBeGreaterThan(0);

    // Back: readiness recovers without a restart, and every settled call has exactly one row.
    await db.start();
    await eventuallyAsync(
      async () => (await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(10_000) })).status,
      (status) => status === 200,
      20_000,
    );
    const rows = await eventuallyAsync(
      async () =>
        (
          await stack.gateway.services.store.queryLogs(
            { userId: "alice" },
            { offset: 0, limit: 1000 },
          )
        ).items,
      (items) => ids.every((id) => items.some((row) => row.requestId === id)),
      20_000,
    );
    for (const id of ids) expect(rows.filter((row) => row.requestId === id)).toHaveLength(1);
    // Written, so the journal is emptied.
    await eventuallyAsync(
      async () => journalText(dataDir),
      (text) => text === "",
      10_000,
    );

    // And the key that was refused works now.
    const again = await postJson(
      `${url}/v1/chat/completions`,
      { model: "txtA-5", messages: [{ role: "user", content: "hi" }] },
      auth(FRESH_KEY),
    );
    expect(again.status).toBe(200);
  }, 90_000);
});

describe.skipIf(!available)("a PostgreSQL restart under a transaction", () => {
  it("rejects the transaction as an outage, crashes nothing, and reconnects by itself", async () => {
    const db = await startPrivatePostgres();
    try {
      const sql = await openPostgres(db.url, { max: 4 });
      // A checked-out client in a transaction when the server goes away (the crash of issue 27).
      const held = sql.transaction(async (tx) => {
        await tx.all("SELECT 1");
        await tx.all("SELECT pg_sleep(20)");
      });
      const settled = held.then(
        () => undefined,
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await db.restart();
      const error = (await settled) as { status?: number; retryAfterSeconds?: number };
      expect(error?.status).toBe(503);
      expect(error?.retryAfterSeconds).toBeGreaterThan(0);
      // The broken client went away; the pool serves queries again without a restart.
      const rows = await eventuallyAsync(
        () => sql.all("SELECT 42 AS n").catch(() => []),
        (result) => result.length === 1,
        15_000,
      );
      expect(rows[0]).toEqual({ n: 42 });
      await sql.close();
    } finally {
      db.destroy();
    }
  }, 60_000);
});

function journalText(dir: string): string {
  return readdirSync(dir)
    .filter((name) => name.startsWith("pending-charges-"))
    .map((name) => readFileSync(join(dir, name), "utf8"))
    .join("");
}
