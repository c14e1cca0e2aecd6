import fc from "fast-check";
import pg from "pg";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Accounting, type Hold, LEASE_DEFAULTS } from "../../src/billing/accounting.ts";
import { billingSchema } from "../../src/config/config-schema.ts";
import { createLogger } from "../../src/log/logger.ts";
import { openStore } from "../../src/storage/open-store.ts";
import { TASK_LEASE_HEARTBEAT, taskLeaseOwner } from "../../src/storage/sql-tasks.ts";
import type { Store, UsageLogInput } from "../../src/storage/store.ts";
import type { NewDelivery, NewTask, TaskEnd } from "../../src/storage/task-store.ts";
import {
  type Driver,
  dropSchema,
  expectReservedIsLeased,
  freshSchema,
  POSTGRES_URL,
  postgresDriver,
  postgresReachable,
  sqliteDriver,
  usageLog,
} from "./drivers.ts";

// The durable side of issue 13 on both databases: a submit holds exactly once (or writes nothing
// when it is not covered), an idempotency key returns the first task, every transition is a CAS,
// and the end of a task settles or refunds, logs and owes its push exactly once however many
// pollers race. Task holds are lease rows that no lease maintenance ever takes.

const pgUp = await postgresReachable();

let seq = 0;
const nextId = (prefix = "task") => `${prefix}_${++seq}_${Math.random().toString(36).slice(2, 8)}`;

const HOLD = 100;

function newTask(
  userId: string,
  tokenId: number,
  over: Partial<NewTask> & { id?: string } = {},
): NewTask {
  return {
    id: over.id ?? nextId(),
    userId,
    tokenId,
    kind: "video",
    model: "veo-3.1-generate-preview",
    request: { prompt: "a cat", duration: 8 },
    webhookUrl: "https://hooks.example.com/callback",
    language: "ja",
    estimatedTime: 120,
    createdAt: 1_000,
    nextPollAt: 1_000,
    hold: { credits: HOLD, onToken: true, onUser: true },
    ...over,
  };
}

const log = (userId: string, tokenId: number, requestId: string, credits = 0): UsageLogInput =>
  usageLog({ requestId, tokenId, userId, credits, model: "veo", endpoint: "video", time: 5_000 });

const completed = (userId: string, tokenId: number, taskId: string, credits: number): TaskEnd => ({
  status: "completed",
  result: { videos: [{ url: ["https://files.example.com/v.mp4"], expires_at: 9 }] },
  progress: 100,
  credits,
  cost: credits / 500_000,
  log: log(userId, tokenId, taskId, credits),
});

const failed = (
  userId: string,
  tokenId: number,
  taskId: string,
  status: "failed" | "cancelled" = "failed",
): TaskEnd => ({
  status,
  error: { code: "generation_failed", message: "boom", type: "upstream_error", param: null },
  log: log(userId, tokenId, taskId),
});

const delivery = (taskId: string, at = 5_000): NewDelivery => ({
  id: nextId("whd"),
  url: "https://hooks.example.com/callback",
  body: JSON.stringify({ task_id: taskId }),
  nextAttemptAt: at,
});

const newToken = (userId: string, quota: number, unlimited = false) => ({
  keyHash: nextId("hash"),
  keyHint: "sk-ab…wxyz",
  name: nextId("name"),
  userId,
  quota,
  unlimited,
  source: "api" as const,
});

/** A user and a token of their own, both limited to `quota` unless said otherwise. */
async function account(
  store: Store,
  quota: { user?: number; token?: number; userUnlimited?: boolean; tokenUnlimited?: boolean } = {},
) {
  const userId = nextId("user");
  await store.upsertUser({
    id: userId,
    quota: quota.user ?? 1_000,
    unlimited: quota.userUnlimited ?? false,
  });
  const token = await store.createToken(
    newToken(userId, quota.token ?? 1_000, quota.tokenUnlimited ?? false),
  );
  return { userId, tokenId: token.id };
}

const taskLeases = async (store: Store, taskId: string) =>
  (await store.listLeases()).filter((l) => l.owner === taskLeaseOwner(taskId));

async function usageRows(store: Store, userId: string) {
  return (await store.queryLogs({ userId }, { offset: 0, limit: 100 })).items;
}

function contract(driver: Driver) {
  describe(`TaskStore and WebhookStore contract: ${driver.name}`, () => {
    let store: Store;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ store, drop } = await driver.open());
    });
    afterAll(async () => {
      await drop?.();
    });

    it("submit holds the credits once, as never-stale task:<id> lease rows", async () => {
      const { userId, tokenId } = await account(store);
      const task = newTask(userId, tokenId, { idempotencyKey: "k1", sourceTaskId: "src_1" });
      const outcome = await store.tasks.submit(task);
      expect(outcome).toMatchObject({ ok: true, created: true });
      if (!outcome.ok) throw new Error("unreachable");
      expect(outcome.task).toMatchObject({
        id: task.id,
        userId,
        tokenId,
        kind: "video",
        model: task.model,
        channel: undefined,
        status: "pending",
        progress: 0,
        request: task.request,
        upstream: undefined,
        result: undefined,
        error: undefined,
        webhookUrl: task.webhookUrl,
        language: "ja",
        holdCredits: HOLD,
        creditsCost: 0,
        cost: 0,
        estimatedTime: 120,
        idempotencyKey: "k1",
        sourceTaskId: "src_1",
        attempts: 0,
        nextPollAt: 1_000,
        createdAt: 1_000,
        startedAt: undefined,
        completedAt: undefined,
      });
      expect(await store.tasks.get(task.id)).toEqual(outcome.task);
      expect(await store.getToken(tokenId)).toMatchObject({ reserved: HOLD, used: 0 });
      expect(await store.getUser(userId)).toMatchObject({ reserved: HOLD, used: 0 });
      const leases = await taskLeases(store, task.id);
      expect(leases.map(({ kind, subject, amount }) => ({ kind, subject, amount }))).toEqual(
        expect.arrayContaining([
          { kind: "token", subject: String(tokenId), amount: HOLD },
          { kind: "user", subject: userId, amount: HOLD },
        ]),
      );
      expect(leases).toHaveLength(2);
      for (const lease of leases) expect(lease.heartbeatAt).toBe(TASK_LEASE_HEARTBEAT);
      await expectReservedIsLeased(store, [tokenId], [userId]);
      expect(await store.tasks.get("task_unknown")).toBeUndefined();
    });

    it("a submit the token or the user cannot cover writes nothing (402)", async () => {
      const poorToken = await account(store, { token: HOLD - 1 });
      const first = newTask(poorToken.userId, poorToken.tokenId);
      expect(await store.tasks.submit(first)).toEqual({ ok: false, short: "token" });
      const poorUser = await account(store, { user: HOLD - 1 });
      const second = newTask(poorUser.userId, poorUser.tokenId);
      expect(await store.tasks.submit(second)).toEqual({ ok: false, short: "user" });
      for (const [task, who] of [
        [first, poorToken],
        [second, poorUser],
      ] as const) {
        expect(await store.tasks.get(task.id)).toBeUndefined();
        expect(await taskLeases(store, task.id)).toEqual([]);
        expect(await store.getToken(who.tokenId)).toMatchObject({ reserved: 0 });
        expect(await store.getUser(who.userId)).toMatchObject({ reserved: 0 });
      }
      // Exactly covered is enough: quota - used - reserved >= hold.
      const exact = await account(store, { user: HOLD, token: HOLD });
      expect(await store.tasks.submit(newTask(exact.userId, exact.tokenId))).toMatchObject({
        ok: true,
      });
      expect(await store.tasks.submit(newTask(exact.userId, exact.tokenId))).toEqual({
        ok: false,
        short: "token",
      });
      await expectReservedIsLeased(store, [exact.tokenId], [exact.userId]);
    });

    it("an unlimited side holds nothing and is still charged", async () => {
      const { userId, tokenId } = await account(store, { token: 0, tokenUnlimited: true });
      const task = newTask(userId, tokenId, {
        hold: { credits: HOLD, onToken: false, onUser: true },
      });
      expect(await store.tasks.submit(task)).toMatchObject({ ok: true, created: true });
      expect((await taskLeases(store, task.id)).map((l) => l.kind)).toEqual(["user"]);
      expect(await store.getToken(tokenId)).toMatchObject({ reserved: 0 });
      expect(await store.getUser(userId)).toMatchObject({ reserved: HOLD });
      expect(
        await store.tasks.finish(task.id, "pending", completed(userId, tokenId, task.id, 60)),
      ).toBe(true);
      expect(await store.getToken(tokenId)).toMatchObject({ reserved: 0, used: 60 });
      expect(await store.getUser(userId)).toMatchObject({ reserved: 0, used: 60 });
      await expectReservedIsLeased(store, [tokenId], [userId]);
    });

    it("an idempotency key returns the first task without holding again", async () => {
      const { userId, tokenId } = await account(store);
      const first = await store.tasks.submit(newTask(userId, tokenId, { idempotencyKey: "same" }));
      const again = await store.tasks.submit(
        newTask(userId, tokenId, { idempotencyKey: "same", model: "other" }),
      );
      if (!first.ok || !again.ok) throw new Error("both submits should succeed");
      expect(again.created).toBe(false);
      expect(again.task).toEqual(first.task);
      expect(await store.getToken(tokenId)).toMatchObject({ reserved: HOLD });
      // Even once the task ended, the key still names it (and nothing is held again).
      await store.tasks.finish(first.task.id, "pending", failed(userId, tokenId, first.task.id));
      const late = await store.tasks.submit(newTask(userId, tokenId, { idempotencyKey: "same" }));
      expect(late).toMatchObject({ ok: true, created: false, task: { id: first.task.id } });
      expect(await store.getToken(tokenId)).toMatchObject({ reserved: 0 });
      // Keys are per user; no key never matches.
      const other = await account(store);
      const theirs = await store.tasks.submit(
        newTask(other.userId, other.tokenId, { idempotencyKey: "same" }),
      );
      expect(theirs).toMatchObject({ ok: true, created: true });
      const a = await store.tasks.submit(newTask(userId, tokenId));
      const b = await store.tasks.submit(newTask(userId, tokenId));
      expect([a, b]).toMatchObject([{ created: true }, { created: true }]);
      await expectReservedIsLeased(store, [tokenId, other.tokenId], [userId, other.userId]);
    });

    it("concurrent submits with one idempotency key create and hold once", async () => {
      const { userId, tokenId } = await account(store);
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, () =>
          store.tasks.submit(newTask(userId, tokenId, { idempotencyKey: "race" })),
        ),
      );
      const ok = outcomes.filter((o) => o.ok);
      expect(ok).toHaveLength(6);
      expect(ok.filter((o) => o.created)).toHaveLength(1);
      expect(new Set(ok.map((o) => o.task.id)).size).toBe(1);
      expect(await store.getToken(tokenId)).toMatchObject({ reserved: HOLD });
      expect(await store.getUser(userId)).toMatchObject({ reserved: HOLD });
      await expectReservedIsLeased(store, [tokenId], [userId]);
      // Even when the balance covers just one hold: the others get the first task, not a 402.
      const exact = await account(store, { user: HOLD, token: HOLD });
      const tight = await Promise.all(
        Array.from({ length: 4 }, () =>
          store.tasks.submit(newTask(exact.userId, exact.tokenId, { idempotencyKey: "tight" })),
        ),
      );
      expect(tight.every((o) => o.ok)).toBe(true);
      expect(tight.filter((o) => o.ok && o.created)).toHaveLength(1);
      await expectReservedIsLeased(store, [exact.tokenId], [exact.userId]);
    });

    it("completion settles once: used grows, the hold goes, one usage row, one push", async () => {
      const { userId, tokenId } = await account(store);
      const task = newTask(userId, tokenId);
      await store.tasks.submit(task);
      const push = delivery(task.id);
      const end = completed(userId, tokenId, task.id, 80);
      expect(await store.tasks.finish(task.id, "pending", end, push)).toBe(true);
      expect(await store.tasks.get(task.id)).toMatchObject({
        status: "completed",
        progress: 100,
        result: end.status === "completed" ? end.result : undefined,
        error: undefined,
        creditsCost: 80,
        cost: 80 / 500_000,
        completedAt: 5_000,
      });
      expect(await store.getToken(tokenId)).toMatchObject({ used: 80, reserved: 0 });
      expect(await store.getUser(userId)).toMatchObject({ used: 80, reserved: 0 });
      expect(await taskLeases(store, task.id)).toEqual([]);
      const rows = await usageRows(store, userId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ requestId: task.id, credits: 80, model: "veo" });
      expect(await store.webhooks.get(push.id)).toMatchObject({
        id: push.id,
        taskId: task.id,
        userId,
        url: push.url,
        body: push.body,
        status: "pending",
        attempts: 0,
        nextAttemptAt: 5_000,
        lastStatus: undefined,
        lastError: undefined,
      });
      // A terminal task never ends again: not as expected "completed", not from "pending".
      for (const expected of ["completed", "pending", "processing"] as const) {
        expect(await store.tasks.finish(task.id, expected, end, delivery(task.id))).toBe(false);
        expect(await store.tasks.finish(task.id, expected, failed(userId, tokenId, task.id))).toBe(
          false,
        );
      }
      expect(await store.getToken(tokenId)).toMatchObject({ used: 80, reserved: 0 });
      expect(await usageRows(store, userId)).toHaveLength(1);
      await expectReservedIsLeased(store, [tokenId], [userId]);
    });

    it("a charge above the hold is clamped to it", async () => {
      const { userId, tokenId } = await account(store);
      const task = newTask(userId, tokenId);
      await store.tasks.submit(task);
      expect(
        await store.tasks.finish(task.id, "pending", completed(userId, tokenId, task.id, 500)),
      ).toBe(true);
      expect(await store.tasks.get(task.id)).toMatchObject({
        creditsCost: HOLD,
        cost: HOLD / 500_000,
      });
      expect(await store.getToken(tokenId)).toMatchObject({ used: HOLD, reserved: 0 });
      expect((await usageRows(store, userId))[0]).toMatchObject({ credits: HOLD });
    });

    it.each(["failed", "cancelled"] as const)("%s refunds the whole hold", async (status) => {
      const { userId, tokenId } = await account(store);
      const task = newTask(userId, tokenId);
      await store.tasks.submit(task);
      expect(await store.tasks.update(task.id, "pending", { status: "processing" })).toBe(true);
      const end = failed(userId, tokenId, task.id, status);
      expect(await store.tasks.finish(task.id, "processing", end)).toBe(true);
      expect(await store.tasks.get(task.id)).toMatchObject({
        status,
        progress: 0,
        result: undefined,
        error: end.status === "completed" ? undefined : end.error,
        creditsCost: 0,
        cost: 0,
      });
      expect(await store.getToken(tokenId)).toMatchObject({ used: 0, reserved: 0 });
      expect(await store.getUser(userId)).toMatchObject({ used: 0, reserved: 0 });
      expect(await taskLeases(store, task.id)).toEqual([]);
      const rows = await usageRows(store, userId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ requestId: task.id, credits: 0 });
      expect(await store.webhooks.due(Number.MAX_SAFE_INTEGER, 1000)).not.toContainEqual(
        expect.objectContaining({ taskId: task.id }),
      );
    });

    const races: readonly (readonly [string, readonly ("completed" | "failed" | "cancelled")[]])[] =
      [
        ["one completes, one fails", ["completed", "failed"]],
        ["both complete", ["completed", "completed"]],
        ["both fail", ["failed", "failed"]],
        ["one cancels, two complete", ["cancelled", "completed", "completed"]],
      ];
    it.each(races)("racing pollers (%s): exactly one ends the task", async (_, ends) => {
      const { userId, tokenId } = await account(store);
      const task = newTask(userId, tokenId);
      await store.tasks.submit(task);
      expect(await store.tasks.update(task.id, "pending", { status: "processing" })).toBe(true);
      const pushes = ends.map(() => delivery(task.id));
      const results = await Promise.all(
        ends.map((end, i) =>
          store.tasks.finish(
            task.id,
            "processing",
            end === "completed"
              ? completed(userId, tokenId, task.id, 70)
              : failed(userId, tokenId, task.id, end),
            pushes[i],
          ),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = ends[results.indexOf(true)];
      const row = await store.tasks.get(task.id);
      expect(row?.status).toBe(winner);
      const charged = winner === "completed" ? 70 : 0;
      expect(await store.getToken(tokenId)).toMatchObject({ used: charged, reserved: 0 });
      expect(await store.getUser(userId)).toMatchObject({ used: charged, reserved: 0 });
      const rows = await usageRows(store, userId);
      expect(rows).toHaveLength(1);
      expect(rows[0]?.credits).toBe(charged);
      const made = await Promise.all(pushes.map((p) => store.webhooks.get(p.id)));
      expect(made.filter((d) => d !== undefined)).toHaveLength(1);
      expect(made[results.indexOf(true)]).toBeDefined();
      await expectReservedIsLeased(store, [tokenId], [userId]);
    });

    it("update is a CAS on the expected status and never revives a terminal task", async () => {
      const { userId, tokenId } = await account(store);
      const task = newTask(userId, tokenId);
      await store.tasks.submit(task);
      expect(
        await store.tasks.update(task.id, "pending", {
          status: "processing",
          progress: 10,
          channel: "veo-a",
          upstream: { operation: "models/veo/operations/op1" },
          attempts: 1,
          nextPollAt: 2_000,
          startedAt: 1_500,
        }),
      ).toBe(true);
      // A stale writer that still thinks the task is pending changes nothing.
      expect(await store.tasks.update(task.id, "pending", { progress: 99 })).toBe(false);
      expect(await store.tasks.update(task.id, "processing", { progress: 40 })).toBe(true);
      expect(await store.tasks.get(task.id)).toMatchObject({
        status: "processing",
        progress: 40,
        channel: "veo-a",
        upstream: { operation: "models/veo/operations/op1" },
        attempts: 1,
        nextPollAt: 2_000,
        startedAt: 1_500,
      });
      expect(await store.tasks.update(task.id, "processing", { status: "pending" })).toBe(false);
      expect(await store.tasks.update("task_nope", "pending", { progress: 1 })).toBe(false);
      await store.tasks.finish(task.id, "processing", failed(userId, tokenId, task.id));
      for (const expected of ["processing", "failed"] as const) {
        expect(await store.tasks.update(task.id, expected, { status: "processing" })).toBe(false);
      }
      expect((await store.tasks.get(task.id))?.status).toBe("failed");
    });

    it("webhook deliveries: claim and record are compare-and-swaps", async () => {
      const { userId, tokenId } = await account(store);
      const task = newTask(userId, tokenId);
      await store.tasks.submit(task);
      const push = delivery(task.id, 10_000);
      await store.tasks.finish(task.id, "pending", completed(userId, tokenId, task.id, 1), push);
      const hooks = store.webhooks;
      expect(await hooks.claim(push.id, 9_999, 40_000)).toBeUndefined(); // not due yet
      const claims = await Promise.all([
        hooks.claim(push.id, 10_000, 40_000),
        hooks.claim(push.id, 10_000, 40_000),
      ]);
      expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
      expect(await hooks.claim(push.id, 39_999, 70_000)).toBeUndefined(); // still claimed
      expect((await hooks.due(20_000, 1000)).map((d) => d.id)).not.toContain(push.id);
      // The attempt answered 500: one more try at 30 s; a stale record (wrong count) is refused.
      expect(await hooks.record(push.id, 0, { retryAt: 40_000, lastStatus: 500 }, 20_000)).toBe(
        true,
      );
      expect(await hooks.record(push.id, 0, { status: "delivered" }, 20_000)).toBe(false);
      expect(await hooks.get(push.id)).toMatchObject({
        status: "pending",
        attempts: 1,
        nextAttemptAt: 40_000,
        lastStatus: 500,
        updatedAt: 20_000,
      });
      expect((await hooks.due(39_999, 1000)).map((d) => d.id)).not.toContain(push.id);
      expect((await hooks.due(40_000, 1000)).map((d) => d.id)).toContain(push.id);
      expect(await hooks.claim(push.id, 40_000, 70_000)).toMatchObject({ attempts: 1 });
      expect(await hooks.record(push.id, 1, { status: "delivered", lastStatus: 200 }, 41_000)).toBe(
        true,
      );
      expect(await hooks.get(push.id)).toMatchObject({
        status: "delivered",
        attempts: 2,
        lastStatus: 200,
        lastError: undefined,
      });
      // Done: never claimed, due or recorded again.
      expect(await hooks.claim(push.id, 100_000, 130_000)).toBeUndefined();
      expect((await hooks.due(100_000, 1000)).map((d) => d.id)).not.toContain(push.id);
      expect(await hooks.record(push.id, 2, { status: "failed" }, 100_000)).toBe(false);
      expect(await hooks.get("whd_unknown")).toBeUndefined();
    });

    it("a delivery that fails for good records why", async () => {
      const { userId, tokenId } = await account(store);
      const task = newTask(userId, tokenId);
      await store.tasks.submit(task);
      const push = delivery(task.id, 1);
      await store.tasks.finish(task.id, "pending", failed(userId, tokenId, task.id), push);
      expect(await store.webhooks.claim(push.id, 1, 100)).toBeDefined();
      const outcome = { status: "failed", lastError: "connect ECONNREFUSED" } as const;
      expect(await store.webhooks.record(push.id, 0, outcome, 50)).toBe(true);
      expect(await store.webhooks.get(push.id)).toMatchObject({
        status: "failed",
        attempts: 1,
        lastStatus: undefined,
        lastError: "connect ECONNREFUSED",
      });
    });

    it("signing secrets: whsec_ and 32 random bytes, made once, rotated on demand", async () => {
      const user = nextId("user");
      const firsts = await Promise.all([store.webhooks.secret(user), store.webhooks.secret(user)]);
      expect(firsts[0]).toBe(firsts[1]);
      const secret = firsts[0] as string;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
      expect(await store.webhooks.secret(user)).toBe(secret);
      expect(await store.webhooks.secret(nextId("user"))).not.toBe(secret);
      const rotated = await store.webhooks.rotateSecret(user);
      expect(rotated).not.toBe(secret);
      expect(rotated).toMatch(/^whsec_/);
      expect(await store.webhooks.secret(user)).toBe(rotated);
      // Standard Webhooks receivers take it as it is: a signature made with it verifies, and
      // one made with the old secret no longer does.
      const body = '{"task_id":"t"}';
      const headers = (s: string) => {
        const id = "msg_1";
        const at = new Date();
        return {
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
          "webhook-signature": new Webhook(s).sign(id, at, body),
        };
      };
      expect(new Webhook(rotated).verify(body, headers(rotated))).toEqual({ task_id: "t" });
      expect(() => new Webhook(rotated).verify(body, headers(secret))).toThrow();
      // Rotating a user that had no secret yet makes one.
      const fresh = nextId("user");
      const made = await store.webhooks.rotateSecret(fresh);
      expect(await store.webhooks.secret(fresh)).toBe(made);
    });

    it("claimDue hands each due task to one poller until its claim runs out", async () => {
      // A store of its own: claimDue sees every task in it.
      const own = await driver.open();
      try {
        const s = own.store;
        const { userId, tokenId } = await account(s, { user: 10_000, token: 10_000 });
        const submit = async (nextPollAt: number, createdAt: number) => {
          const task = newTask(userId, tokenId, { nextPollAt, createdAt });
          await s.tasks.submit(task);
          return task.id;
        };
        const late = await submit(900, 2);
        const early = await submit(500, 1);
        const notDue = await submit(50_000, 3);
        const done = await submit(100, 4);
        await s.tasks.finish(done, "pending", failed(userId, tokenId, done));
        const claimed = await s.tasks.claimDue(1_000, 31_000, 10);
        expect(claimed.map((t) => t.id)).toEqual([early, late]);
        expect(await s.tasks.claimDue(1_000, 31_000, 10)).toEqual([]);
        expect(await s.tasks.claimDue(30_999, 61_000, 10)).toEqual([]);
        // The claim ran out: due again, in poll-time order, at most `limit` of them.
        expect((await s.tasks.claimDue(31_000, 61_000, 1)).map((t) => t.id)).toEqual([early]);
        expect((await s.tasks.claimDue(31_000, 61_000, 10)).map((t) => t.id)).toEqual([late]);
        // A new poll time ends the claim: the task is due again at that time.
        expect(await s.tasks.update(early, "pending", { nextPollAt: 40_000 })).toBe(true);
        expect(await s.tasks.claimDue(39_999, 70_000, 10)).toEqual([]);
        expect((await s.tasks.claimDue(40_000, 70_000, 10)).map((t) => t.id)).toEqual([early]);
        expect((await s.tasks.claimDue(50_000, 80_000, 10)).map((t) => t.id)).toEqual([notDue]);
        // Two pollers at once: every due task to exactly one of them.
        for (let i = 0; i < 8; i++) await submit(200_000, 10 + i);
        const [a, b] = await Promise.all([
          s.tasks.claimDue(200_000, 230_000, 5),
          s.tasks.claimDue(200_000, 230_000, 5),
        ]);
        const ids = [...(a ?? []), ...(b ?? [])].map((t) => t.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBeGreaterThanOrEqual(5);
        const rest = await s.tasks.claimDue(200_000, 230_000, 100);
        expect(ids.length + rest.length).toBe(8 + 3); // the 8 new, and early, late, notDue
      } finally {
        await own.drop();
      }
    });

    it("lease upkeep (stale reclaim, heartbeats, give-backs, shutdown) never takes a task hold", async () => {
      const own = await driver.open();
      try {
        const s = own.store;
        const { userId, tokenId } = await account(s, { user: 100_000, token: 100_000 });
        const task = newTask(userId, tokenId);
        await s.tasks.submit(task);
        // A dead instance's lease on the same subjects, and a live one's.
        const dead = { owner: "gw_dead", kind: "token" as const, subject: String(tokenId) };
        expect(await s.takeLease(dead, [500], 0, false)).toBe(500);
        let clock = 10_000_000;
        const accounting = new Accounting(
          s,
          billingSchema.parse({}),
          createLogger({ level: "silent" }),
          { timers: false, now: () => clock },
        );
        await accounting.start(); // reclaims gw_dead
        expect((await s.listLeases()).map((l) => l.owner).sort()).toEqual([
          taskLeaseOwner(task.id),
          taskLeaseOwner(task.id),
        ]);
        const reserved = await accounting.reserve({
          requestId: "r1",
          tokenId,
          userId,
          amount: 300,
          tokenUnlimited: false,
          userUnlimited: false,
        });
        if (!reserved.ok) throw new Error("reserve failed");
        reserved.hold.settle(200, usageLog({ requestId: "r1", tokenId, userId, credits: 200 }));
        await accounting.writePending();
        await expectReservedIsLeased(s, [tokenId], [userId]);
        // Years pass: heartbeats, idle give-backs and stale reclaims all run.
        for (const step of [60_000, 3_600_000, 365 * 86_400_000]) {
          clock += step;
          await accounting.maintain();
          expect(await s.reclaimLeases({ before: clock })).toMatchObject({ leases: 0 });
        }
        expect(await s.heartbeatLeases("gw_other", clock)).toEqual([]);
        await accounting.close();
        const left = await s.listLeases();
        expect(left.every((l) => l.owner === taskLeaseOwner(task.id))).toBe(true);
        expect(left).toHaveLength(2);
        expect(await s.getToken(tokenId)).toMatchObject({ reserved: HOLD, used: 200 });
        expect(await s.getUser(userId)).toMatchObject({ reserved: HOLD, used: 200 });
        // And the task still settles from its hold afterwards.
        expect(
          await s.tasks.finish(task.id, "pending", completed(userId, tokenId, task.id, 90)),
        ).toBe(true);
        expect(await s.getToken(tokenId)).toMatchObject({ reserved: 0, used: 290 });
        expect(await s.listLeases()).toEqual([]);
      } finally {
        await own.drop();
      }
    });
  });
}

/** Postgres only: holds row locks on every task so that two pollers truly overlap. */
function contention() {
  describe("claimDue under contention: postgres", () => {
    it("two pollers blocked on the same due rows: each row goes to one of them", async () => {
      const schema = freshSchema("claim");
      const store = await openStore(POSTGRES_URL, { schema, max: 4 });
      const locker = new pg.Client({ connectionString: POSTGRES_URL });
      try {
        const { userId, tokenId } = await account(store, { user: 10_000, token: 10_000 });
        for (let i = 0; i < 4; i++) await store.tasks.submit(newTask(userId, tokenId));
        await locker.connect();
        await locker.query(`SET search_path = ${schema}`);
        await locker.query("BEGIN");
        await locker.query("SELECT id FROM tasks FOR UPDATE");
        // Both pollers pick the same four rows, then wait for the lock on them.
        const both = Promise.all([
          store.tasks.claimDue(1_000, 31_000, 10),
          store.tasks.claimDue(1_000, 31_000, 10),
        ]);
        // pg_stat_activity is read once per transaction unless its snapshot is cleared.
        const waiting = async () => {
          await locker.query("SELECT pg_stat_clear_snapshot()");
          return Number(
            (
              await locker.query(
                `SELECT COUNT(DISTINCT a.pid) AS n FROM pg_stat_activity a JOIN pg_locks l USING (pid)
                 WHERE l.relation = 'tasks'::regclass AND a.wait_event_type = 'Lock'`,
              )
            ).rows[0]?.n,
          );
        };
        for (let i = 0; i < 250 && (await waiting()) < 2; i++) await sleep(20);
        expect(await waiting()).toBe(2);
        await locker.query("COMMIT");
        const [a, b] = await both;
        const ids = [...a, ...b].map((t) => t.id);
        expect(ids).toHaveLength(4);
        expect(new Set(ids).size).toBe(4);
      } finally {
        await locker.end().catch(() => undefined);
        await store.close();
        await dropSchema(schema);
      }
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Task holds beside the per-call leases of two gateway instances, in any order: submits (some
// with a repeated idempotency key, some not covered), ends (some raced by a second poller),
// calls reserved, settled and refunded, and an instance going silent until the other reclaims
// its leases. After every step reserved is the sum of the lease rows and every task still in
// progress holds exactly its hold; at the end everything settled is used and logged, once.
type LedgerOp =
  | { kind: "submit"; amount: number; onToken: boolean; key: number }
  | {
      kind: "finish";
      pick: number;
      end: "completed" | "failed" | "cancelled";
      credits: number;
      raced: boolean;
    }
  | { kind: "reserve"; at: 0 | 1; amount: number }
  | { kind: "settle"; pick: number; cost: number }
  | { kind: "refund"; pick: number }
  | { kind: "reclaim"; dead: 0 | 1 };

const instanceArb = fc.constantFrom(0 as const, 1 as const);
const ledgerOp: fc.Arbitrary<LedgerOp> = fc.oneof(
  fc.record({
    kind: fc.constant("submit" as const),
    amount: fc.nat(400),
    onToken: fc.boolean(),
    key: fc.nat(3),
  }),
  fc.record({
    kind: fc.constant("finish" as const),
    pick: fc.nat(),
    end: fc.constantFrom("completed" as const, "failed" as const, "cancelled" as const),
    credits: fc.nat(500),
    raced: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("reserve" as const), at: instanceArb, amount: fc.nat(300) }),
  fc.record({ kind: fc.constant("settle" as const), pick: fc.nat(), cost: fc.nat(400) }),
  fc.record({ kind: fc.constant("refund" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("reclaim" as const), dead: instanceArb }),
);

interface ModelTask {
  readonly id: string;
  readonly tokenId: number;
  readonly hold: number;
  readonly onToken: boolean;
  ended: boolean;
}

function ledgerProperty(driver: Driver, runs: number) {
  it(`${driver.name}: task holds and call leases in any order keep reserved = leases and charge once`, async () => {
    const billing = billingSchema.parse({});
    const silent = createLogger({ level: "silent" });
    await fc.assert(
      fc.asyncProperty(fc.array(ledgerOp, { minLength: 10, maxLength: 40 }), async (ops) => {
        const { store, drop } = await driver.open();
        const clocks: [number, number] = [1_000_000, 1_000_000];
        const instances = ([0, 1] as const).map(
          (i) => new Accounting(store, billing, silent, { now: () => clocks[i], timers: false }),
        );
        try {
          await store.upsertUser({ id: "u", quota: 3_000, unlimited: false });
          const limited = (await store.createToken(newToken("u", 2_000))).id;
          const unlimited = (await store.createToken(newToken("u", 0, true))).id;
          const tasks: ModelTask[] = [];
          const calls: { hold: Hold; tokenId: number }[] = [];
          const used = new Map<number, number>([
            [limited, 0],
            [unlimited, 0],
          ]);
          const charge = (tokenId: number, credits: number) =>
            used.set(tokenId, (used.get(tokenId) ?? 0) + credits);
          let n = 0;
          for (const step of ops) {
            if (step.kind === "submit") {
              const tokenId = step.onToken ? limited : unlimited;
              const key = step.key === 0 ? undefined : `key${step.key}`;
              const task = newTask("u", tokenId, {
                idempotencyKey: key,
                hold: { credits: step.amount, onToken: step.onToken, onUser: true },
              });
              const outcome = await store.tasks.submit(task);
              if (outcome.ok && outcome.created) {
                tasks.push({
                  id: task.id,
                  tokenId,
                  hold: step.amount,
                  onToken: step.onToken,
                  ended: false,
                });
              }
              if (outcome.ok && !outcome.created) {
                expect(tasks.map((t) => t.id)).toContain(outcome.task.id);
              }
            } else if (step.kind === "finish" && tasks.length > 0) {
              const task = tasks[step.pick % tasks.length] as ModelTask;
              const end = (status: typeof step.end): TaskEnd =>
                status === "completed"
                  ? completed("u", task.tokenId, task.id, step.credits)
                  : failed("u", task.tokenId, task.id, status);
              const ends = step.raced ? [step.end, "failed" as const] : [step.end];
              const won = await Promise.all(
                ends.map((status) => store.tasks.finish(task.id, "pending", end(status))),
              );
              expect(won.filter(Boolean)).toHaveLength(task.ended ? 0 : 1);
              const winner = ends[won.indexOf(true)];
              if (winner === "completed") charge(task.tokenId, Math.min(step.credits, task.hold));
              if (winner !== undefined) task.ended = true;
            } else if (step.kind === "reserve") {
              const reserved = await (instances[step.at] as Accounting).reserve({
                requestId: `r${n++}`,
                tokenId: limited,
                userId: "u",
                amount: step.amount,
                tokenUnlimited: false,
                userUnlimited: false,
              });
              if (reserved.ok) calls.push({ hold: reserved.hold, tokenId: limited });
            } else if (step.kind === "settle" && calls.length > 0) {
              const call = calls.splice(step.pick % calls.length, 1)[0]!;
              call.hold.settle(
                step.cost,
                usageLog({
                  requestId: call.hold.id,
                  tokenId: call.tokenId,
                  userId: "u",
                  credits: step.cost,
                }),
              );
              // A cost above the hold is charged the hold (issue 15, item 3).
              charge(call.tokenId, Math.min(step.cost, call.hold.amount));
            } else if (step.kind === "refund" && calls.length > 0) {
              const call = calls.splice(step.pick % calls.length, 1)[0]!;
              call.hold.refund(
                usageLog({
                  requestId: call.hold.id,
                  tokenId: call.tokenId,
                  userId: "u",
                  credits: 0,
                }),
              );
            } else if (step.kind === "reclaim") {
              const alive = step.dead === 0 ? 1 : 0;
              clocks[alive] = Math.max(...clocks) + LEASE_DEFAULTS.staleMs + 1;
              await (instances[alive] as Accounting).maintain();
            }
            for (const instance of instances) await instance.writePending();
            await expectReservedIsLeased(store, [limited, unlimited], ["u"]);
            const leases = await store.listLeases();
            for (const task of tasks) {
              const rows = leases.filter((l) => l.owner === taskLeaseOwner(task.id));
              const held =
                task.ended || task.hold === 0 ? [] : task.onToken ? ["token", "user"] : ["user"];
              expect(rows.map((r) => r.kind).sort(), task.id).toEqual(held);
              for (const row of rows) expect(row.amount).toBe(task.hold);
            }
            expect((await store.getToken(limited))?.used).toBe(used.get(limited));
          }
          for (const call of calls.splice(0)) {
            call.hold.refund(
              usageLog({ requestId: call.hold.id, tokenId: call.tokenId, userId: "u", credits: 0 }),
            );
          }
          for (const task of tasks) {
            await store.tasks.finish(
              task.id,
              "pending",
              failed("u", task.tokenId, task.id, "cancelled"),
            );
          }
          for (const instance of instances) await instance.close();
          const total = (used.get(limited) ?? 0) + (used.get(unlimited) ?? 0);
          expect(await store.getUser("u")).toMatchObject({ reserved: 0, used: total });
          expect(await store.getToken(limited)).toMatchObject({
            reserved: 0,
            used: used.get(limited),
          });
          expect(await store.getToken(unlimited)).toMatchObject({
            reserved: 0,
            used: used.get(unlimited),
          });
          expect((await store.logStats({ userId: "u" })).credits).toBe(total);
          expect(await store.listLeases()).toEqual([]);
        } finally {
          for (const instance of instances) await instance.close();
          await drop();
        }
      }),
      { numRuns: runs },
    );
  }, 120_000);
}

contract(sqliteDriver);
describe("task ledger property", () => {
  ledgerProperty(sqliteDriver, 60);
  if (pgUp) ledgerProperty(postgresDriver, 8);
});
if (pgUp) {
  contract(postgresDriver);
  contention();
} else {
  describe.skip("TaskStore contract: postgres (server unreachable)", () => it("skipped", () => {}));
}
