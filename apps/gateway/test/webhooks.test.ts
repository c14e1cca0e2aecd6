import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../src/log/logger.ts";
import type { WorkHandler, WorkKind, WorkQueue } from "../src/queue/work-queue.ts";
import type { DeliveryRow, WebhookStore } from "../src/storage/webhook-store.ts";
import { type LookupAll, resolveTarget } from "../src/webhooks/resolve-target.ts";
import { scheduleDelivery, WebhookDispatcher } from "../src/webhooks/webhook-dispatcher.ts";
import {
  auth,
  eventually,
  eventuallyAsync,
  KEY,
  LIMITED_KEY,
  postJson,
  type Stack,
  startStack,
} from "./stack.ts";
import {
  type Driver,
  postgresDriver,
  postgresReachable,
  sqliteDriver,
  usageLog,
} from "./storage/drivers.ts";

// Webhook delivery (issue 13, docs/api-reference.md "Task-completion webhook"): real HTTP to receivers on
// loopback (allow_private_targets), a clock the test moves and a queue the test drives, so the
// 10/30/60 s schedule is checked to the millisecond without a test ever sleeping that long.

/** A WorkQueue whose jobs run only when the test says the clock has reached them. */
class DrivenQueue implements WorkQueue {
  readonly jobs: { kind: WorkKind; id: string; atMs: number }[] = [];
  /**
   * Jobs taken by a worker that died: like BullMQ's, their (kind, id, time) stays taken until the
   * lock runs out, so scheduling the same look again adds nothing.
   */
  readonly held: { kind: WorkKind; id: string; atMs: number }[] = [];
  readonly #handlers = new Map<WorkKind, WorkHandler>();

  async schedule(kind: WorkKind, id: string, atMs: number): Promise<void> {
    const is = (j: { kind: WorkKind; id: string; atMs: number }) =>
      j.kind === kind && j.id === id && j.atMs === atMs;
    if (!this.jobs.some(is) && !this.held.some(is)) this.jobs.push({ kind, id, atMs });
  }

  process(kind: WorkKind, handler: WorkHandler): void {
    this.#handlers.set(kind, handler);
  }

  /** Runs every job due at `now` (including those scheduled meanwhile), oldest first. */
  async runDue(now: number): Promise<number> {
    let ran = 0;
    for (;;) {
      const due = this.jobs.filter((j) => j.atMs <= now).sort((a, b) => a.atMs - b.atMs)[0];
      if (due === undefined) return ran;
      this.jobs.splice(this.jobs.indexOf(due), 1);
      const handler = this.#handlers.get(due.kind);
      if (handler === undefined) throw new Error(`no handler for ${due.kind}`);
      await handler(due.id);
      ran += 1;
    }
  }

  async close(): Promise<void> {}
}

type Behaviour = number | "hang" | { redirect: string };

interface Hit {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface Receiver {
  url: string;
  port: number;
  hits: Hit[];
}

/** Run after each test, last registered first: receivers, dispatchers, stores. */
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A receiver on loopback answering the i-th request with `script[i]` (200 after the script). */
async function startReceiver(script: Behaviour[], clock: () => number): Promise<Receiver> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({
        at: clock(),
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      const behaviour = script[hits.length - 1] ?? 200;
      if (behaviour === "hang") return;
      if (typeof behaviour === "number") {
        res.writeHead(behaviour, { "content-type": "text/plain" }).end("answer");
        return;
      }
      res.writeHead(302, { location: behaviour.redirect }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => closeServer(server));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, port, hits };
}

/** A fresh store of one driver, and a way to owe a push the way TaskStore.finish does. */
interface DeliveryFixture {
  readonly webhooks: WebhookStore;
  readonly userId: string;
  insert(d: {
    taskId: string;
    url: string;
    body: string;
    nextAttemptAt: number;
  }): Promise<DeliveryRow>;
}

async function openFixture(driver: Driver): Promise<DeliveryFixture> {
  const { store, drop } = await driver.open();
  cleanups.push(drop);
  const userId = "alice";
  return {
    webhooks: store.webhooks,
    userId,
    async insert({ taskId, url, body, nextAttemptAt }) {
      const submitted = await store.tasks.submit({
        id: taskId,
        userId,
        tokenId: 1,
        kind: "video",
        model: "vidA-standard",
        request: {},
        webhookUrl: url,
        estimatedTime: 60,
        createdAt: nextAttemptAt,
        nextPollAt: nextAttemptAt,
        hold: { credits: 0, onToken: false, onUser: false },
      });
      if (!submitted.ok) throw new Error("submit refused");
      const log = usageLog({
        requestId: taskId,
        tokenId: 1,
        credits: 0,
        userId,
        time: nextAttemptAt,
      });
      const error = { code: "generation_failed", message: "failed", type: "server_error" };
      const id = `whd_${taskId}`;
      const finished = await store.tasks.finish(
        taskId,
        "pending",
        { status: "failed", error, log },
        { id, url, body, nextAttemptAt },
      );
      if (!finished) throw new Error("finish refused");
      const row = await store.webhooks.get(id);
      if (row === undefined) throw new Error("no delivery row");
      return row;
    },
  };
}

interface Harness {
  fixture: DeliveryFixture;
  queue: DrivenQueue;
  dispatcher: WebhookDispatcher;
  clock: () => number;
  /** Moves the clock to `ms` and runs every job due by then. */
  advanceTo(ms: number): Promise<number>;
  logText(): string;
  /** Another dispatcher over the same store (a restarted gateway), with its own queue. */
  restart(): Promise<{ queue: DrivenQueue; dispatcher: WebhookDispatcher }>;
}

// Real time, so the signature's timestamp is within the verifier's tolerance.
const T0 = Date.now();

interface HarnessOptions {
  driver?: Driver;
  allowPrivate?: boolean;
  timeoutMs?: number;
  lookup?: LookupAll;
  /** The gateway's public_url: pushes to its host are refused. */
  publicUrl?: string;
}

async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  let now = T0;
  const clock = () => now;
  const fixture = await openFixture(options.driver ?? sqliteDriver);
  const lines: string[] = [];
  const log = createLogger({ level: "debug" }, { write: (line: string) => void lines.push(line) });
  const make = async () => {
    const queue = new DrivenQueue();
    const dispatcher = new WebhookDispatcher(
      {
        store: { webhooks: fixture.webhooks },
        queue,
        config: {
          webhooks: { allow_private_targets: options.allowPrivate ?? true },
          listen: { host: "127.0.0.1", port: 0 },
          ...(options.publicUrl === undefined ? {} : { public_url: options.publicUrl }),
        },
        log,
        now: clock,
      },
      {
        timeoutMs: options.timeoutMs ?? 2000,
        sweepIntervalMs: 0,
        ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      },
    );
    await dispatcher.start();
    cleanups.push(() => dispatcher.close());
    return { queue, dispatcher };
  };
  const first = await make();
  return {
    fixture,
    ...first,
    clock,
    advanceTo: (ms) => {
      now = ms;
      return first.queue.runDue(ms);
    },
    logText: () => lines.join(""),
    restart: make,
  };
}

const BODY = (taskId: string) =>
  JSON.stringify({ id: taskId, status: "completed", progress: 100, created_at: 1 });

/** A pending delivery due now, scheduled the way the runtime does when a task finishes. */
async function owe(h: Harness, url: string, taskId = "task_1"): Promise<DeliveryRow> {
  const row = await h.fixture.insert({ taskId, url, body: BODY(taskId), nextAttemptAt: h.clock() });
  await scheduleDelivery({ queue: h.queue }, row.id, row.nextAttemptAt);
  return row;
}

const rowOf = async (h: Harness, id: string) => {
  const row = await h.fixture.webhooks.get(id);
  if (row === undefined) throw new Error(`no delivery ${id}`);
  return row;
};

/** Names the test controls, resolved without DNS. */
const fakeDns =
  (table: Record<string, string[]>): LookupAll =>
  async (host) => {
    const addresses = table[host];
    if (addresses === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    }
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

/** The suites whose rows live in the database: on SQLite and on PostgreSQL. */
function deliverySuites(driver: Driver): void {
  const start = (options: HarnessOptions = {}) => startHarness({ driver, ...options });

  describe(`webhook delivery schedule (${driver.name})`, () => {
    it("500 then 200: exactly two deliveries, the second 10 s after the first", async () => {
      const h = await start();
      const receiver = await startReceiver([500, 200], h.clock);
      const row = await owe(h, `${receiver.url}/callback`);
      expect(await h.advanceTo(T0)).toBe(1);
      expect(await rowOf(h, row.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        lastStatus: 500,
        nextAttemptAt: T0 + 10_000,
      });
      // Nothing happens a millisecond early.
      expect(await h.advanceTo(T0 + 9_999)).toBe(0);
      expect(receiver.hits).toHaveLength(1);
      await h.advanceTo(T0 + 10_000);
      expect(receiver.hits.map((hit) => hit.at)).toEqual([T0, T0 + 10_000]);
      expect(receiver.hits.map((hit) => hit.path)).toEqual(["/callback", "/callback"]);
      expect(await rowOf(h, row.id)).toMatchObject({
        status: "delivered",
        attempts: 2,
        lastStatus: 200,
      });
      expect(h.queue.jobs).toEqual([]);
      await h.advanceTo(T0 + 600_000);
      expect(receiver.hits).toHaveLength(2);
    });

    it("5xx four times: retries at +10, +30, +60 s, then failed for good", async () => {
      const h = await start();
      const receiver = await startReceiver([500, 502, 503, 500, 200], h.clock);
      const row = await owe(h, `${receiver.url}/callback`);
      await h.advanceTo(T0);
      await h.advanceTo(T0 + 10_000);
      await h.advanceTo(T0 + 40_000);
      await h.advanceTo(T0 + 100_000);
      await h.advanceTo(T0 + 3_600_000);
      const times = receiver.hits.map((hit) => hit.at - T0);
      expect(times).toEqual([0, 10_000, 40_000, 100_000]);
      expect(await rowOf(h, row.id)).toMatchObject({
        status: "failed",
        attempts: 4,
        lastStatus: 500,
      });
      expect(h.queue.jobs).toEqual([]);
    });

    it.each([400, 404, 410, 422])(
      "a %i stops delivery at once: one attempt, no retry",
      async (code) => {
        const h = await start();
        const receiver = await startReceiver([code, 200], h.clock);
        const row = await owe(h, `${receiver.url}/callback`);
        await h.advanceTo(T0);
        await h.advanceTo(T0 + 3_600_000);
        expect(receiver.hits).toHaveLength(1);
        expect(await rowOf(h, row.id)).toMatchObject({
          status: "failed",
          attempts: 1,
          lastStatus: code,
        });
        expect(h.queue.jobs).toEqual([]);
      },
    );

    it("a receiver that does not answer in time counts as a failure and is retried", async () => {
      // 1.5 s: a delivery that answers at once still fits on a loaded machine (300 ms did not:
      // the second, answered attempt timed out before it reached the receiver).
      const h = await start({ timeoutMs: 1_500 });
      const receiver = await startReceiver(["hang", 200], h.clock);
      const row = await owe(h, `${receiver.url}/callback`);
      // The receiver never answers: this returns only because the timeout cut the attempt.
      await h.advanceTo(T0);
      const after = await rowOf(h, row.id);
      expect(after).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: T0 + 10_000 });
      expect(after.lastError).toBe("timeout");
      expect(after.lastStatus).toBeUndefined();
      await h.advanceTo(T0 + 10_000);
      expect(receiver.hits).toHaveLength(2);
      expect(await rowOf(h, row.id)).toMatchObject({ status: "delivered", attempts: 2 });
    });

    it("a refused connection is a network error, retried", async () => {
      const h = await start();
      const receiver = await startReceiver([], h.clock);
      const closedPort = receiver.port;
      for (const cleanup of cleanups.splice(-1)) await cleanup();
      const row = await owe(h, `http://127.0.0.1:${closedPort}/callback`);
      await h.advanceTo(T0);
      const after = await rowOf(h, row.id);
      expect(after).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: T0 + 10_000 });
      expect(after.lastError).toMatch(/ECONNREFUSED/);
    });

    it("redirects are not followed: a 3xx is final", async () => {
      const h = await start();
      const elsewhere = await startReceiver([200], h.clock);
      const receiver = await startReceiver([{ redirect: `${elsewhere.url}/stolen` }], h.clock);
      const row = await owe(h, `${receiver.url}/callback`);
      await h.advanceTo(T0);
      await h.advanceTo(T0 + 3_600_000);
      expect(receiver.hits).toHaveLength(1);
      expect(elsewhere.hits).toHaveLength(0);
      expect(await rowOf(h, row.id)).toMatchObject({
        status: "failed",
        attempts: 1,
        lastStatus: 302,
      });
    });

    it("a job that fires before the row's time looks again at the row's time", async () => {
      const h = await start();
      const receiver = await startReceiver([200], h.clock);
      const row = await h.fixture.insert({
        taskId: "task_early",
        url: `${receiver.url}/callback`,
        body: BODY("task_early"),
        nextAttemptAt: T0 + 5_000,
      });
      await scheduleDelivery({ queue: h.queue }, row.id, T0);
      await h.advanceTo(T0);
      expect(receiver.hits).toHaveLength(0);
      await h.advanceTo(T0 + 5_000);
      expect(receiver.hits.map((hit) => hit.at)).toEqual([T0 + 5_000]);
    });

    it("a queue clock running ahead does not spin: the row waits for the sweep", async () => {
      const h = await start();
      const receiver = await startReceiver([200], h.clock);
      const row = await h.fixture.insert({
        taskId: "task_skew",
        url: `${receiver.url}/callback`,
        body: BODY("task_skew"),
        nextAttemptAt: T0 + 5_000,
      });
      await scheduleDelivery({ queue: h.queue }, row.id, T0);
      await h.advanceTo(T0);
      // The queue thinks the re-scheduled job is due while the gateway's clock says it is not.
      expect(await h.queue.runDue(T0 + 5_000)).toBe(1);
      expect(h.queue.jobs).toEqual([]);
      expect(receiver.hits).toHaveLength(0);
      await h.advanceTo(T0 + 5_000);
      expect(await h.dispatcher.sweep()).toBe(1);
      await h.advanceTo(T0 + 5_000);
      expect(receiver.hits.map((hit) => hit.at)).toEqual([T0 + 5_000]);
    });
  });

  describe(`webhook signatures, Standard Webhooks (${driver.name})`, () => {
    it("verifies with the user's secret and standardwebhooks, and fails after a rotation", async () => {
      const h = await start();
      const receiver = await startReceiver([200, 200], h.clock);
      const first = await owe(h, `${receiver.url}/callback`, "task_a");
      await h.advanceTo(T0);
      const hit = receiver.hits[0];
      if (hit === undefined) throw new Error("no delivery");
      const secret = await h.fixture.webhooks.secret(h.fixture.userId);
      expect(secret).toMatch(/^whsec_/);
      expect(hit.headers["content-type"]).toBe("application/json");
      expect(hit.headers["user-agent"]).toMatch(/Interlingua/);
      expect(hit.headers["webhook-id"]).toBe(first.id);
      expect(hit.headers["webhook-timestamp"]).toBe(String(Math.floor(T0 / 1000)));
      expect(hit.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      const headers = hit.headers as Record<string, string>;
      expect(new Webhook(secret).verify(hit.body, headers)).toEqual(JSON.parse(BODY("task_a")));
      expect(hit.body).toBe(BODY("task_a"));
      // A changed body or another secret does not verify.
      expect(() =>
        new Webhook(secret).verify(hit.body.replace("completed", "failed"), headers),
      ).toThrow();

      const rotated = await h.fixture.webhooks.rotateSecret(h.fixture.userId);
      expect(rotated).not.toBe(secret);
      await owe(h, `${receiver.url}/callback`, "task_b");
      await h.advanceTo(T0 + 1_000);
      const second = receiver.hits[1];
      if (second === undefined) throw new Error("no second delivery");
      const secondHeaders = second.headers as Record<string, string>;
      expect(new Webhook(rotated).verify(second.body, secondHeaders)).toMatchObject({
        id: "task_b",
      });
      expect(() => new Webhook(secret).verify(second.body, secondHeaders)).toThrow();
    });

    it("keeps the same webhook-id on a retry and never logs the secret or the signature", async () => {
      const h = await start();
      const receiver = await startReceiver([503, 200], h.clock);
      await owe(h, `${receiver.url}/callback`);
      await h.advanceTo(T0);
      await h.advanceTo(T0 + 10_000);
      const [a, b] = receiver.hits;
      expect(a?.headers["webhook-id"]).toBe(b?.headers["webhook-id"]);
      const secret = await h.fixture.webhooks.secret(h.fixture.userId);
      const log = h.logText();
      expect(log).toContain("webhook delivered");
      expect(log).not.toContain(secret);
      expect(log).not.toContain(secret.replace(/^whsec_/, ""));
      for (const hit of receiver.hits) {
        const signature = String(hit.headers["webhook-signature"]).replace(/^v1,/, "");
        expect(log).not.toContain(signature);
      }
    });
  });

  describe(`webhook restart safety (${driver.name})`, () => {
    it("a new dispatcher over the same store delivers a pending row once", async () => {
      const h = await start();
      const receiver = await startReceiver([200, 200], h.clock);
      // Owed, but the instance dies before its queue runs the job (the job is lost with it).
      const due = await owe(h, `${receiver.url}/callback`, "task_due");
      const later = await h.fixture.insert({
        taskId: "task_later",
        url: `${receiver.url}/callback`,
        body: BODY("task_later"),
        nextAttemptAt: T0 + 30_000,
      });
      await h.dispatcher.close();
      const restarted = await h.restart();
      // Every pending row is re-scheduled at its own time.
      expect(restarted.queue.jobs.map((j) => [j.id, j.atMs]).sort()).toEqual(
        [
          [due.id, T0],
          [later.id, T0 + 30_000],
        ].sort(),
      );
      await restarted.queue.runDue(T0);
      // A sweep and a second restart schedule nothing more for a delivered row.
      expect(await restarted.dispatcher.sweep()).toBe(0);
      const again = await h.restart();
      await again.queue.runDue(T0);
      await restarted.queue.runDue(T0);
      expect(receiver.hits.map((hit) => JSON.parse(hit.body).id)).toEqual(["task_due"]);
      expect(await rowOf(h, due.id)).toMatchObject({ status: "delivered", attempts: 1 });
      expect(await rowOf(h, later.id)).toMatchObject({ status: "pending", attempts: 0 });
    });

    it("a row whose job a dead worker holds is swept up at once, under a new job", async () => {
      const h = await start();
      const receiver = await startReceiver([200], h.clock);
      const row = await h.fixture.insert({
        taskId: "task_held",
        url: `${receiver.url}/callback`,
        body: BODY("task_held"),
        nextAttemptAt: T0,
      });
      // The killed instance took the job and died before its claim: the job stays taken.
      h.queue.held.push({ kind: "webhook", id: row.id, atMs: T0 });
      await h.advanceTo(T0 + 1_000);
      expect(receiver.hits).toHaveLength(0);
      expect(await h.dispatcher.sweep()).toBe(1);
      await h.advanceTo(T0 + 1_000);
      expect(receiver.hits).toHaveLength(1);
      expect(await rowOf(h, row.id)).toMatchObject({ status: "delivered", attempts: 1 });
    });

    it("a row claimed by a worker that died is swept up once its claim runs out", async () => {
      const h = await start();
      const receiver = await startReceiver([200], h.clock);
      const row = await h.fixture.insert({
        taskId: "task_claimed",
        url: `${receiver.url}/callback`,
        body: BODY("task_claimed"),
        nextAttemptAt: T0,
      });
      // The dead worker's claim: nobody may send meanwhile.
      expect(await h.fixture.webhooks.claim(row.id, T0, T0 + 30_000)).toBeDefined();
      expect(await h.dispatcher.sweep()).toBe(0);
      await h.advanceTo(T0 + 30_001);
      expect(await h.dispatcher.sweep()).toBe(1);
      await h.advanceTo(T0 + 30_001);
      expect(receiver.hits).toHaveLength(1);
      expect(await rowOf(h, row.id)).toMatchObject({ status: "delivered", attempts: 1 });
    });
  });
}

const pgUp = await postgresReachable();
deliverySuites(sqliteDriver);
if (pgUp) deliverySuites(postgresDriver);
else
  describe.skip("webhook delivery: postgres (server unreachable)", () => it("skipped", () => {}));

describe("webhook targets (SSRF guard at send time)", () => {
  it("a public-looking name resolving to loopback is dropped after DNS: no request, no retry", async () => {
    const asked: string[] = [];
    const dns = fakeDns({ "hooks.example.com": ["127.0.0.1"] });
    const h = await startHarness({
      allowPrivate: false,
      lookup: (host) => {
        asked.push(host);
        return dns(host);
      },
    });
    // The URL passes every rule on its face; only its DNS answer is private.
    const row = await owe(h, "http://hooks.example.com/callback");
    await h.advanceTo(T0);
    await h.advanceTo(T0 + 3_600_000);
    expect(asked).toEqual(["hooks.example.com"]);
    const after = await rowOf(h, row.id);
    // Dropped, not a network error: nothing was connected to (a refused connection is retried).
    expect(after).toMatchObject({ status: "dropped", attempts: 1 });
    expect(after.lastError).toMatch(/127\.0\.0\.1/);
    expect(after.lastStatus).toBeUndefined();
    expect(h.queue.jobs).toEqual([]);
  });

  it("connects to the vetted address: no second lookup can aim the push elsewhere", async () => {
    const table: Record<string, string[]> = { "hooks.example.com": ["127.0.0.1"] };
    const h = await startHarness({ allowPrivate: true, lookup: fakeDns(table) });
    const receiver = await startReceiver([200], h.clock);
    // The system resolver does not know this name: reaching the receiver proves the connection
    // used the address the check vetted, not a second lookup.
    const row = await owe(h, `http://hooks.example.com:${receiver.port}/callback`);
    await h.advanceTo(T0);
    expect(receiver.hits).toHaveLength(1);
    expect(receiver.hits[0]?.headers.host).toBe(`hooks.example.com:${receiver.port}`);
    expect(await rowOf(h, row.id)).toMatchObject({ status: "delivered" });
  });

  it.each([
    ["loopback", ["127.0.0.1"]],
    ["private 10/8", ["10.1.2.3"]],
    ["private 192.168/16", ["192.168.1.10"]],
    ["link-local (cloud metadata)", ["169.254.169.254"]],
    ["IPv6 loopback", ["::1"]],
    ["IPv6 ULA", ["fd12:3456::1"]],
    ["IPv6 link-local", ["fe80::1"]],
    ["IPv4-mapped loopback", ["::ffff:127.0.0.1"]],
    ["unspecified", ["0.0.0.0"]],
    ["one private among public", ["93.184.216.34", "10.0.0.7"]],
  ])("refuses a name resolving to %s", async (_label, addresses) => {
    const target = await resolveTarget("https://hooks.example.com/callback", {
      serviceHosts: [],
      allowPrivate: false,
      lookup: fakeDns({ "hooks.example.com": addresses }),
    });
    expect(target.kind).toBe("refused");
  });

  it("accepts a name resolving only to public addresses, pinned to exactly those", async () => {
    const target = await resolveTarget("https://hooks.example.com/callback", {
      serviceHosts: [],
      allowPrivate: false,
      lookup: fakeDns({ "hooks.example.com": ["93.184.216.34", "2606:2800:220:1::1"] }),
    });
    expect(target).toMatchObject({
      kind: "ok",
      pinned: { address: "93.184.216.34", family: 4 },
      addresses: [
        { address: "93.184.216.34", family: 4 },
        { address: "2606:2800:220:1::1", family: 6 },
      ],
    });
  });

  it("a name that does not resolve is a network error (retried), not a drop", async () => {
    const h = await startHarness({ allowPrivate: false, lookup: fakeDns({}) });
    const row = await owe(h, "https://nowhere.example.com/callback");
    await h.advanceTo(T0);
    const after = await rowOf(h, row.id);
    expect(after).toMatchObject({ status: "pending", attempts: 1, nextAttemptAt: T0 + 10_000 });
    expect(after.lastError).toMatch(/ENOTFOUND/);
  });

  it.each([
    ["a non-http scheme", "ftp://hooks.example.com/callback"],
    ["credentials in the URL", "https://user:pass@hooks.example.com/callback"],
    ["a private IP literal", "http://10.0.0.1/callback"],
    ["localhost", "http://localhost/callback"],
    ["a non-standard port", "https://hooks.example.com:8443/callback"],
  ])("drops a URL with %s on its face: no lookup, no request", async (_label, url) => {
    const asked: string[] = [];
    const h = await startHarness({
      allowPrivate: false,
      // Had a rule let the URL through, the "lookup" fails (a retried network error), so a
      // broken rule shows as pending instead of reaching out to the network.
      lookup: async (host) => {
        asked.push(host);
        throw new Error("no lookup expected");
      },
    });
    const row = await owe(h, url);
    await h.advanceTo(T0);
    expect(await rowOf(h, row.id)).toMatchObject({ status: "dropped", attempts: 1 });
    expect(asked).toEqual([]);
    expect(h.queue.jobs).toEqual([]);
  });

  it("drops a push to the gateway's own host (public_url), even in test mode", async () => {
    const receiver = await startReceiver([200], () => T0);
    const h = await startHarness({ publicUrl: receiver.url });
    const row = await owe(h, `${receiver.url}/callback`);
    await h.advanceTo(T0);
    expect(await rowOf(h, row.id)).toMatchObject({ status: "dropped", attempts: 1 });
    expect(receiver.hits).toHaveLength(0);
  });
});

describe("webhook secret API", () => {
  it("GET /api/webhook/secret creates the secret once; rotate replaces it", async () => {
    const stack = await startStack();
    cleanups.push(() => stack.close());
    const get = async (key?: string) => {
      const response = await fetch(`${stack.gateway.url}/api/webhook/secret`, {
        headers: key === undefined ? {} : auth(key),
      });
      return { status: response.status, headers: response.headers, json: await response.json() };
    };
    const first = await get(KEY);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.json).toMatchObject({
      success: true,
      message: "",
      data: { secret: expect.stringMatching(/^whsec_/) },
    });
    const secret = (first.json as { data: { secret: string } }).data.secret;
    // 32 random bytes, the size Standard Webhooks libraries expect.
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect((await get(KEY)).json).toMatchObject({ data: { secret } });
    // The secret belongs to the user: every key of the user reads the same one.
    expect((await get(LIMITED_KEY)).json).toMatchObject({ data: { secret } });
    expect(await stack.gateway.services.store.webhooks.secret("alice")).toBe(secret);

    const rotated = await postJson(`${stack.gateway.url}/api/webhook/secret/rotate`, {});
    expect(rotated.status).toBe(200);
    const next = (rotated.json as { data: { secret: string } }).data.secret;
    expect(next).toMatch(/^whsec_/);
    expect(next).not.toBe(secret);
    expect((await get(KEY)).json).toMatchObject({ data: { secret: next } });

    const anonymous = await get();
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toMatchObject({ success: false, data: null });
    const wrong = await postJson(
      `${stack.gateway.url}/api/webhook/secret/rotate`,
      {},
      auth("sk-wrong"),
    );
    expect(wrong.status).toBe(401);
    expect((await get(KEY)).json).toMatchObject({ data: { secret: next } });
    expect(stack.logText()).not.toContain(next.slice("whsec_".length));
  });
});

describe("webhook dispatcher in the gateway", () => {
  /** What a finished task leaves behind: a pending push row (see TaskStore.finish). */
  async function owePush(stack: Stack, taskId: string, url: string): Promise<string> {
    const store = stack.gateway.services.store;
    const at = Date.now();
    const submitted = await store.tasks.submit({
      id: taskId,
      userId: "alice",
      tokenId: 1,
      kind: "image",
      model: "imgA-1",
      request: {},
      webhookUrl: url,
      estimatedTime: 10,
      createdAt: at,
      nextPollAt: at,
      hold: { credits: 0, onToken: false, onUser: false },
    });
    expect(submitted.ok).toBe(true);
    const id = `whd_${taskId}`;
    const log = usageLog({ requestId: taskId, tokenId: 1, credits: 0, userId: "alice", time: at });
    const error = { code: "generation_failed", message: "failed", type: "server_error" };
    const body = BODY(taskId);
    await store.tasks.finish(
      taskId,
      "pending",
      { status: "failed", error, log },
      { id, url, body, nextAttemptAt: at },
    );
    return id;
  }

  it("delivers what the runtime schedules, and after a restart what was owed before it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "webhooks-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const receiver = await startReceiver([200, 200], Date.now);
    const databaseUrl = `sqlite:${join(dir, "gateway.db")}`;
    const config = { databaseUrl, webhooks: { allow_private_targets: true } };

    const first = await startStack(config);
    const scheduled = await owePush(first, "task_live", `${receiver.url}/callback`);
    await scheduleDelivery(first.gateway.services, scheduled, Date.now());
    await eventually(() => receiver.hits.length === 1);
    const secret = await first.gateway.services.store.webhooks.secret("alice");
    const hit = receiver.hits[0];
    expect(
      new Webhook(secret).verify(hit?.body ?? "", hit?.headers as Record<string, string>),
    ).toMatchObject({ id: "task_live" });
    // Owed but never scheduled: the instance stops before its job runs.
    const owed = await owePush(first, "task_owed", `${receiver.url}/callback`);
    await first.close();

    const second = await startStack(config);
    cleanups.push(() => second.close());
    await eventually(() => receiver.hits.length === 2);
    expect(receiver.hits.map((h) => JSON.parse(h.body).id)).toEqual(["task_live", "task_owed"]);
    // The receiver answers before the dispatcher records the delivery: wait for the row.
    const row = await eventuallyAsync(
      () => second.gateway.services.store.webhooks.get(owed),
      (r) => r?.status === "delivered",
    );
    expect(row).toMatchObject({ status: "delivered", attempts: 1 });
    // Once only: a sweep finds nothing more to send.
    await new Promise((r) => setTimeout(r, 100));
    expect(receiver.hits).toHaveLength(2);
  });
});
