import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "../../src/storage/migrations.ts";
import type {
  ChargeBatch,
  LeaseGrant,
  LogFilter,
  Store,
  UsageLogInput,
} from "../../src/storage/store.ts";
import {
  type Driver,
  expectReservedIsLeased,
  postgresDriver,
  postgresReachable,
  sqliteDriver,
} from "./drivers.ts";

const pgUp = await postgresReachable();

const log = (over: Partial<UsageLogInput> = {}): UsageLogInput => ({
  requestId: "r",
  time: 1_000,
  userId: "alice",
  tokenId: 1,
  tokenName: "t",
  model: "txtA-5",
  channel: "oa",
  endpoint: "chat",
  promptTokens: 10,
  completionTokens: 5,
  cachedTokens: 2,
  cacheWriteTokens: 1,
  thinkingTokens: 3,
  credits: 7,
  cost: 0.000014,
  latencyMs: 12,
  stream: false,
  status: 200,
  ...over,
});

const newToken = (hash: string, userId: string, quota: number, unlimited = false) => ({
  keyHash: hash,
  keyHint: "sk-ab…wxyz",
  name: `name-${hash}`,
  userId,
  quota,
  unlimited,
  source: "api" as const,
});

const OWNER = "gw_contract";

const leaseKey = (kind: "token" | "user", subject: string | number, owner = OWNER) => ({
  owner,
  kind,
  subject: String(subject),
});

/** Leases `amount` on the token and on its user (each only when `sides` says so). */
async function lease(
  store: Store,
  tokenId: number,
  userId: string,
  amount: number,
  sides = { token: true, user: true },
  owner = OWNER,
): Promise<LeaseGrant[]> {
  const rows = await store.listLeases();
  const has = (kind: string, subject: string) =>
    rows.some((l) => l.owner === owner && l.kind === kind && l.subject === subject);
  const results: LeaseGrant[] = [];
  if (sides.token) {
    const known = has("token", String(tokenId));
    results.push(await store.takeLease(leaseKey("token", tokenId, owner), [amount], 0, known));
  }
  if (sides.user) {
    const known = has("user", userId);
    results.push(await store.takeLease(leaseKey("user", userId, owner), [amount], 0, known));
  }
  return results;
}

let batches = 0;

/** Charges each call `credits` on its token and user, drawing `consumed` from OWNER's leases. */
const batch = (
  calls: {
    tokenId: number;
    userId: string;
    credits: number;
    consumed?: number;
    held?: { token: boolean; user: boolean };
  }[],
  logs: UsageLogInput[] = [],
  id = `b${batches++}`,
): ChargeBatch => ({
  id,
  charges: calls.map((c) => ({
    tokenId: c.tokenId,
    userId: c.userId,
    credits: c.credits,
    tokenOwner: c.held?.token === false ? undefined : OWNER,
    tokenConsumed: c.held?.token === false ? 0 : (c.consumed ?? c.credits),
    userOwner: c.held?.user === false ? undefined : OWNER,
    userConsumed: c.held?.user === false ? 0 : (c.consumed ?? c.credits),
  })),
  logs,
});

function contract(driver: Driver) {
  describe(`Store contract: ${driver.name}`, () => {
    let store: Store;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      ({ store, drop } = await driver.open());
      await store.upsertUser({ id: "alice", quota: 1_000, unlimited: false });
      await store.upsertUser({ id: "bob", quota: 50, unlimited: false });
    });
    afterAll(async () => {
      await drop?.();
    });

    it("migrations are recorded and a second run applies nothing", async () => {
      expect(await store.migrate()).toEqual([]);
      expect(MIGRATIONS.map((m) => m.version)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(store.driver).toBe(driver.name);
    });

    it("upsertUser sets the quota and keeps what was used", async () => {
      await store.upsertUser({ id: "carol", quota: 100, unlimited: false });
      const token = await store.createToken(newToken("h-carol", "carol", 100));
      expect(await lease(store, token.id, "carol", 30)).toEqual([30, 30]);
      await store.writeCharges(batch([{ tokenId: token.id, userId: "carol", credits: 20 }]), 1);
      expect(await store.returnLease(leaseKey("user", "carol"), 10)).toBe("deleted");
      const again = await store.upsertUser({ id: "carol", quota: 300, unlimited: true });
      expect(again).toMatchObject({
        id: "carol",
        quota: 300,
        used: 20,
        reserved: 0,
        unlimited: true,
      });
      expect(await store.getUser("nobody")).toBeUndefined();
    });

    it("upsertToken by hash keeps used and reserved, and updates the rest", async () => {
      const first = (await store.upsertToken({
        ...newToken("h-up", "alice", 100),
        source: "config",
      }))!;
      expect(await lease(store, first.id, "alice", 10, { token: true, user: false })).toEqual([10]);
      const tokenOnly = { token: true, user: false };
      await store.writeCharges(
        batch([{ tokenId: first.id, userId: "alice", credits: 4, held: tokenOnly }]),
        1,
      );
      expect(await lease(store, first.id, "alice", 4, tokenOnly)).toEqual([4]);
      const again = await store.upsertToken({
        ...newToken("h-up", "alice", 500),
        name: "renamed",
        models: ["txtA-5"],
        expiresAt: 99,
        source: "config",
      });
      expect(again).toMatchObject({
        id: first.id,
        name: "renamed",
        quota: 500,
        used: 4,
        reserved: 10,
        models: ["txtA-5"],
        expiresAt: 99,
        source: "config",
        status: "active",
      });
      expect(await store.findTokenByHash("h-up")).toEqual(again);
      expect(await store.findTokenByHash("nope")).toBeUndefined();
    });

    it("lists only the owner's tokens, newest first, paginated", async () => {
      await store.upsertUser({ id: "dave", quota: 0, unlimited: false });
      const made = [];
      for (let i = 0; i < 5; i++)
        made.push(await store.createToken(newToken(`h-dave-${i}`, "dave", i)));
      const first = await store.listTokens("dave", { offset: 0, limit: 2 });
      expect(first.total).toBe(5);
      expect(first.items.map((t) => t.id)).toEqual([made[4]!.id, made[3]!.id]);
      const last = await store.listTokens("dave", { offset: 4, limit: 2 });
      expect(last.items.map((t) => t.id)).toEqual([made[0]!.id]);
      expect((await store.listTokens("nobody", { offset: 0, limit: 10 })).total).toBe(0);
    });

    it("updates and deletes only the owner's token; remaining sets what is left", async () => {
      const token = await store.createToken(newToken("h-upd", "alice", 100));
      expect(await store.updateToken(token.id, "bob", { name: "x" })).toBeUndefined();
      expect(await lease(store, token.id, "alice", 30, { token: true, user: false })).toEqual([30]);
      const updated = await store.updateToken(token.id, "alice", {
        name: "new",
        remaining: 50,
        status: "disabled",
        expiresAt: 1234,
        models: ["a", "b"],
      });
      expect(updated).toMatchObject({
        name: "new",
        quota: 80,
        reserved: 30,
        status: "disabled",
        expiresAt: 1234,
        models: ["a", "b"],
      });
      const cleared = await store.updateToken(token.id, "alice", { expiresAt: null, models: null });
      expect(cleared).toMatchObject({ expiresAt: undefined, models: undefined });
      expect(await store.deleteToken(token.id, "bob")).toBe(false);
      expect(await store.deleteToken(token.id, "alice")).toBe(true);
      expect(await store.getToken(token.id)).toBeUndefined();
      expect(await store.deleteToken(token.id, "alice")).toBe(false);
    });

    it("a deleted token stays deleted: upsertToken does not bring it back, its spending is kept", async () => {
      await store.upsertUser({ id: "zed", quota: 1_000, unlimited: false });
      const config = { ...newToken("h-zed", "zed", 100), source: "config" as const };
      const token = (await store.upsertToken(config))!;
      expect(await lease(store, token.id, "zed", 50)).toEqual([50, 50]);
      await store.writeCharges(batch([{ tokenId: token.id, userId: "zed", credits: 30 }]), 1);
      expect(await store.returnLease(leaseKey("user", "zed"), 20)).toBe("deleted");
      expect(await store.deleteToken(token.id, "zed")).toBe(true);
      // The next start upserts the config again: nothing comes back, nothing is re-granted.
      expect(await store.upsertToken({ ...config, quota: 500 })).toBeUndefined();
      expect(await store.findTokenByHash("h-zed")).toBeUndefined();
      expect(await store.getToken(token.id)).toBeUndefined();
      expect((await store.listTokens("zed", { offset: 0, limit: 10 })).total).toBe(0);
      expect(await store.updateToken(token.id, "zed", { name: "back" })).toBeUndefined();
      expect(await store.getUser("zed")).toMatchObject({ used: 30, reserved: 0 });
    });

    it("drawTokenQuota takes credits off what is left, only when that much is left, atomically", async () => {
      await store.upsertUser({ id: "drew", quota: 0, unlimited: false });
      const token = await store.createToken(newToken("h-drew", "drew", 1_317));
      expect(await lease(store, token.id, "drew", 17, { token: true, user: false })).toEqual([17]);
      // 1,300 are left beside the lease: concurrent draws of 1,300 succeed once.
      const draws = await Promise.all(
        [1, 2, 3].map(() => store.drawTokenQuota(token.id, "drew", 1_300)),
      );
      expect(draws.filter((row) => row !== undefined)).toHaveLength(1);
      expect(await store.getToken(token.id)).toMatchObject({ quota: 17, reserved: 17 });
      expect(await store.drawTokenQuota(token.id, "drew", 1)).toBeUndefined();
      expect(await store.drawTokenQuota(token.id, "bob", -5)).toBeUndefined();
      // A negative draw gives back; an unlimited token has nothing to draw from.
      expect(await store.drawTokenQuota(token.id, "drew", -300)).toMatchObject({ quota: 317 });
      const free = await store.createToken(newToken("h-drew-free", "drew", 0, true));
      expect(await store.drawTokenQuota(free.id, "drew", 1)).toBeUndefined();
      // Large amounts are BIGINTs on both drivers.
      expect(await store.drawTokenQuota(token.id, "drew", 5_000_000_000)).toBeUndefined();
    });

    it("stores an API token's own rate limits, and clears them", async () => {
      await store.upsertUser({ id: "rita", quota: 0, unlimited: false });
      const token = await store.createToken({
        ...newToken("h-rita", "rita", 10),
        rateLimit: { rpm: 5 },
      });
      expect(token.rateLimit).toEqual({ rpm: 5, tpm: undefined });
      const changed = await store.updateToken(token.id, "rita", { rateLimit: { tpm: 900 } });
      expect(changed?.rateLimit).toEqual({ rpm: undefined, tpm: 900 });
      const cleared = await store.updateToken(token.id, "rita", { rateLimit: null });
      expect(cleared?.rateLimit).toBeUndefined();
    });

    it("takeLease takes the first size that fits, in the row and in reserved, or nothing", async () => {
      await store.upsertUser({ id: "lea", quota: 100, unlimited: false });
      const token = await store.createToken(newToken("h-lea", "lea", 40));
      const key = leaseKey("token", token.id);
      const row = async () =>
        (await store.listLeases()).find((l) => l.owner === OWNER && l.subject === String(token.id));
      expect(await store.takeLease(key, [41], 5, false)).toBe("short");
      // Refused: no row is left behind and nothing is reserved.
      expect(await row()).toBeUndefined();
      expect(await store.takeLease(key, [100, 30, 10], 5, false)).toBe(30);
      expect(await store.takeLease(key, [20, 10], 7, true)).toBe(10);
      expect(await store.takeLease(key, [1], 8, true)).toBe("short");
      expect(await row()).toMatchObject({ kind: "token", amount: 40, heartbeatAt: 7 });
      expect(await store.getToken(token.id)).toMatchObject({ reserved: 40, used: 0 });
      expect(await store.takeLease(leaseKey("user", "lea"), [101], 5, false)).toBe("short");
      expect(await store.takeLease(leaseKey("user", "lea"), [100], 5, false)).toBe(100);
      expect(await store.takeLease(leaseKey("user", "nobody"), [1], 5, false)).toBe("short");
      await expectReservedIsLeased(store, [token.id], ["lea"]);
    });

    it("takeLease says lost when the lease row is not where its owner thinks", async () => {
      await store.upsertUser({ id: "lou", quota: 100, unlimited: false });
      const token = await store.createToken(newToken("h-lou", "lou", 100));
      const key = leaseKey("token", token.id, "gw_lou");
      // Expected a row (it was reclaimed): nothing is taken.
      expect(await store.takeLease(key, [5], 0, true)).toBe("lost");
      expect(await store.takeLease(key, [5], 0, false)).toBe(5);
      // Did not expect one: this owner's bookkeeping is off, nothing is taken either.
      expect(await store.takeLease(key, [5], 0, false)).toBe("lost");
      expect(await store.getToken(token.id)).toMatchObject({ reserved: 5 });
      await expectReservedIsLeased(store, [token.id], ["lou"]);
    });

    it("returnLease shrinks the row and reserved together, deletes an empty row, and says lost when gone", async () => {
      await store.upsertUser({ id: "ret", quota: 100, unlimited: false });
      const token = await store.createToken(newToken("h-ret", "ret", 100));
      const key = leaseKey("token", token.id);
      expect(await store.takeLease(key, [60], 0, false)).toBe(60);
      expect(await store.returnLease(key, 25)).toBe("kept");
      expect(await store.getToken(token.id)).toMatchObject({ reserved: 35 });
      // More than the row holds: nothing changes.
      expect(await store.returnLease(key, 36)).toBe("lost");
      expect(await store.getToken(token.id)).toMatchObject({ reserved: 35 });
      expect(await store.returnLease(key, 35)).toBe("deleted");
      expect(await store.getToken(token.id)).toMatchObject({ reserved: 0, used: 0 });
      expect(await store.returnLease(key, 1)).toBe("lost");
      await expectReservedIsLeased(store, [token.id], ["ret"]);
    });

    it("writeCharges charges each cost on both sides, takes the consumed parts out of the leases, once per batch id", async () => {
      await store.upsertUser({ id: "erin", quota: 1_000, unlimited: false });
      const token = await store.createToken(newToken("h-erin", "erin", 100));
      expect(await lease(store, token.id, "erin", 100)).toEqual([100, 100]);
      const charges = batch(
        [
          { tokenId: token.id, userId: "erin", credits: 10 },
          // Cost above its hold of 60: the hold is consumed, the rest is an overdraft, charged too.
          { tokenId: token.id, userId: "erin", credits: 120, consumed: 60 },
        ],
        [
          log({ requestId: "e1", userId: "erin", credits: 10 }),
          log({ requestId: "e2", userId: "erin", credits: 120 }),
        ],
      );
      expect(await store.writeCharges(charges, 1)).toEqual({ alreadyApplied: false, lost: [] });
      // The same batch again (its first commit's answer was lost): nothing changes.
      expect(await store.writeCharges(charges, 2)).toEqual({ alreadyApplied: true, lost: [] });
      expect(await store.getToken(token.id)).toMatchObject({ used: 130, reserved: 30 });
      expect(await store.getUser("erin")).toMatchObject({ used: 130, reserved: 30 });
      const logs = await store.queryLogs({ userId: "erin" }, { offset: 0, limit: 10 });
      expect(logs.items.map((l) => l.requestId).sort()).toEqual(["e1", "e2"]);
      // 100 - 130 - 30 left on the token: nothing more can be leased until it is raised.
      expect(await store.takeLease(leaseKey("token", token.id), [1], 0, true)).toBe("short");
      await expectReservedIsLeased(store, [token.id], ["erin"]);
    });

    it("one batch written three times at once applies once", async () => {
      await store.upsertUser({ id: "kim", quota: 1_000, unlimited: false });
      const token = await store.createToken(newToken("h-kim", "kim", 1_000));
      expect(await lease(store, token.id, "kim", 100)).toEqual([100, 100]);
      for (let round = 0; round < 5; round++) {
        const charges = batch(
          [{ tokenId: token.id, userId: "kim", credits: 7 }],
          [log({ requestId: `k${round}`, userId: "kim" })],
        );
        const results = await Promise.all([1, 2, 3].map(() => store.writeCharges(charges, 1)));
        expect(results.filter((r) => !r.alreadyApplied)).toHaveLength(1);
      }
      expect(await store.getToken(token.id)).toMatchObject({ used: 35, reserved: 65 });
      expect((await store.logStats({ userId: "kim" })).requests).toBe(5);
      await expectReservedIsLeased(store, [token.id], ["kim"]);
    });

    it("writeCharges: a lease that was reclaimed gives nothing, and its call is charged in full", async () => {
      await store.upsertUser({ id: "jon", quota: 100, unlimited: false });
      const token = await store.createToken(newToken("h-jon", "jon", 100));
      expect(await lease(store, token.id, "jon", 40, undefined, "gw_jon")).toEqual([40, 40]);
      expect(await store.reclaimLeases({ owner: "gw_jon" })).toEqual({ leases: 2, credits: 80 });
      expect(await store.getToken(token.id)).toMatchObject({ used: 0, reserved: 0 });
      const charges: ChargeBatch = {
        id: "jon-1",
        charges: [
          {
            tokenId: token.id,
            userId: "jon",
            credits: 25,
            tokenOwner: "gw_jon",
            tokenConsumed: 25,
            userOwner: "gw_jon",
            userConsumed: 25,
          },
        ],
        logs: [log({ requestId: "j1", userId: "jon", credits: 25 })],
      };
      const outcome = await store.writeCharges(charges, 1);
      expect(outcome.lost).toEqual(
        expect.arrayContaining([
          leaseKey("token", token.id, "gw_jon"),
          leaseKey("user", "jon", "gw_jon"),
        ]),
      );
      expect(outcome.lost).toHaveLength(2);
      expect(await store.getToken(token.id)).toMatchObject({ used: 25, reserved: 0 });
      expect(await store.getUser("jon")).toMatchObject({ used: 25, reserved: 0 });
      expect((await store.queryLogs({ userId: "jon" }, { offset: 0, limit: 10 })).total).toBe(1);
    });

    it("an unlimited side is charged without a lease", async () => {
      await store.upsertUser({ id: "una", quota: 100, unlimited: false });
      const token = await store.createToken(newToken("h-una", "una", 0, true));
      expect(await lease(store, token.id, "una", 30, { token: false, user: true })).toEqual([30]);
      await store.writeCharges(
        batch([
          { tokenId: token.id, userId: "una", credits: 12, held: { token: false, user: true } },
        ]),
        1,
      );
      expect(await store.getToken(token.id)).toMatchObject({ used: 12, reserved: 0 });
      expect(await store.getUser("una")).toMatchObject({ used: 12, reserved: 18 });
      await expectReservedIsLeased(store, [token.id], ["una"]);
    });

    it("a heartbeat refreshes only its owner's rows; reclaiming takes back stale leases and no others", async () => {
      await store.upsertUser({ id: "ivy", quota: 100, unlimited: false });
      const token = await store.createToken(newToken("h-ivy", "ivy", 100));
      const old = (kind: "token" | "user", subject: string | number) =>
        leaseKey(kind, subject, "gw_old");
      expect(await store.takeLease(old("token", token.id), [10], 1_000, false)).toBe(10);
      expect(await store.takeLease(old("user", "ivy"), [10], 1_000, false)).toBe(10);
      const live = leaseKey("token", token.id, "gw_live");
      expect(await store.takeLease(live, [20], 1_000, false)).toBe(20);
      expect(await store.heartbeatLeases("gw_live", 50_000)).toEqual([live]);
      // Leases older than the cut-off (earlier tests' too) go; gw_live's heartbeat saved its own.
      const reclaimed = await store.reclaimLeases({ before: 20_000 });
      expect(reclaimed.leases).toBeGreaterThanOrEqual(2);
      expect(await store.reclaimLeases({ before: 20_000 })).toEqual({ leases: 0, credits: 0 });
      expect(await store.getToken(token.id)).toMatchObject({ reserved: 20, used: 0 });
      expect(await store.getUser("ivy")).toMatchObject({ reserved: 0, used: 0 });
      expect((await store.listLeases()).find((l) => l.owner === "gw_live")).toMatchObject({
        amount: 20,
        heartbeatAt: 50_000,
      });
      // A reclaimed owner's heartbeat finds nothing: that is how it learns.
      expect(await store.heartbeatLeases("gw_old", 60_000)).toEqual([]);
      await expectReservedIsLeased(store, [token.id], ["ivy"]);
    });

    it("forgets applied batch ids older than the cut-off", async () => {
      await store.upsertUser({ id: "fay", quota: 10, unlimited: false });
      const token = await store.createToken(newToken("h-fay", "fay", 10));
      const charges = batch(
        [{ tokenId: token.id, userId: "fay", credits: 1, held: { token: false, user: false } }],
        [],
        "forget-me",
      );
      const at = 1_000_000_000_000;
      await store.writeCharges(charges, at);
      // Only older ids go (earlier tests' batches): this one is still recognised.
      await store.forgetBatches(at);
      expect((await store.writeCharges(charges, at + 1)).alreadyApplied).toBe(true);
      expect(await store.forgetBatches(at + 1)).toBe(1);
      // Forgotten, the same id would apply again: why ids are kept far longer than any retry.
      expect((await store.writeCharges(charges, at + 2)).alreadyApplied).toBe(false);
      expect(await store.getToken(token.id)).toMatchObject({ used: 2 });
    });

    it("queries logs by model, token name and time range, paginated, and sums them", async () => {
      await store.upsertUser({ id: "gil", quota: 0, unlimited: false });
      const rows = [
        log({
          requestId: "g1",
          userId: "gil",
          time: 1_000,
          model: "m1",
          tokenName: "a",
          credits: 1,
        }),
        log({
          requestId: "g2",
          userId: "gil",
          time: 2_000,
          model: "m2",
          tokenName: "a",
          credits: 2,
        }),
        log({
          requestId: "g3",
          userId: "gil",
          time: 3_000,
          model: "m1",
          tokenName: "b",
          credits: 4,
          stream: true,
          channel: undefined,
          error: "boom",
          estimated: true,
        }),
      ];
      // Usage rows alone: a batch without charges (refused and refunded calls write these).
      await store.writeCharges({ id: "gil-logs", charges: [], logs: rows }, 1);
      const all = await store.queryLogs({ userId: "gil" }, { offset: 0, limit: 10 });
      expect(all.total).toBe(3);
      expect(all.items.map((r) => r.requestId)).toEqual(["g3", "g2", "g1"]);
      expect(all.items[0]).toEqual({ ...rows[2], id: expect.any(Number) });
      expect(
        (await store.queryLogs({ userId: "gil", model: "m1" }, { offset: 0, limit: 10 })).items.map(
          (r) => r.requestId,
        ),
      ).toEqual(["g3", "g1"]);
      expect(
        (
          await store.queryLogs({ userId: "gil", tokenName: "a" }, { offset: 1, limit: 1 })
        ).items.map((r) => r.requestId),
      ).toEqual(["g1"]);
      expect(
        (
          await store.queryLogs({ userId: "gil", from: 2_000, to: 3_000 }, { offset: 0, limit: 10 })
        ).items.map((r) => r.requestId),
      ).toEqual(["g2"]);
      expect(await store.logStats({ userId: "gil", model: "m1" })).toEqual({
        requests: 2,
        promptTokens: 20,
        completionTokens: 10,
        cachedTokens: 4,
        cacheWriteTokens: 2,
        thinkingTokens: 6,
        credits: 5,
      });
      expect(await store.logStats({ userId: "nobody" })).toEqual({
        requests: 0,
        promptTokens: 0,
        completionTokens: 0,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        thinkingTokens: 0,
        credits: 0,
      });
    });

    it("filters logs by status and sums them per UTC day and model", async () => {
      await store.upsertUser({ id: "dee", quota: 0, unlimited: false });
      const DAY = 86_400_000;
      const rows = [
        log({ requestId: "d1", userId: "dee", time: 5, model: "m1", credits: 1, status: 200 }),
        log({
          requestId: "d2",
          userId: "dee",
          time: DAY - 1,
          model: "m1",
          credits: 2,
          status: 502,
        }),
        log({ requestId: "d3", userId: "dee", time: DAY, model: "m1", credits: 4, status: 200 }),
        log({
          requestId: "d4",
          userId: "dee",
          time: DAY + 9,
          model: "m2",
          credits: 8,
          status: 429,
        }),
      ];
      await store.writeCharges({ id: "dee-logs", charges: [], logs: rows }, 1);
      const ids = async (filter: Omit<LogFilter, "userId">) =>
        (await store.queryLogs({ userId: "dee", ...filter }, { offset: 0, limit: 10 })).items
          .map((r) => r.requestId)
          .sort();
      expect(await ids({ statusBelow: 400 })).toEqual(["d1", "d3"]);
      expect(await ids({ statusFrom: 400 })).toEqual(["d2", "d4"]);
      expect(await ids({ status: 429 })).toEqual(["d4"]);
      expect((await store.logStats({ userId: "dee", statusFrom: 400 })).credits).toBe(10);
      const daily = await store.logDaily?.({ userId: "dee" });
      expect(daily?.map((d) => [d.day, d.model, d.requests, d.credits])).toEqual([
        [0, "m1", 2, 3],
        [DAY, "m1", 1, 4],
        [DAY, "m2", 1, 8],
      ]);
      expect(daily?.[0]).toMatchObject({ promptTokens: 20, completionTokens: 10 });
      expect(await store.logDaily?.({ userId: "dee", from: DAY, statusBelow: 400 })).toEqual([
        { day: DAY, model: "m1", requests: 1, promptTokens: 10, completionTokens: 5, credits: 4 },
      ]);
    });

    it("200 instances lease at once against a quota covering 57 of them: exactly 57 get it", async () => {
      await store.upsertUser({ id: "hal", quota: 1_000_000, unlimited: false });
      const token = await store.createToken(newToken("h-hal", "hal", 57 * 13));
      // As many at once as the store's pool has connections (20): more would only queue for a
      // connection in this one process, and on a loaded machine pass the pool's 5 s wait.
      const results: LeaseGrant[] = new Array(200);
      let next = 0;
      const instance = async () => {
        for (let i = next++; i < 200; i = next++) {
          results[i] = await store.takeLease(
            leaseKey("token", token.id, `gw_hal_${i}`),
            [13],
            0,
            false,
          );
        }
      };
      await Promise.all(Array.from({ length: 20 }, instance));
      expect(results.filter((r) => r === 13)).toHaveLength(57);
      expect(results.filter((r) => r === "short")).toHaveLength(143);
      expect(await store.getToken(token.id)).toMatchObject({ reserved: 57 * 13, used: 0 });
      // A refused lease leaves no row behind.
      const rows = (await store.listLeases()).filter((l) => l.subject === String(token.id));
      expect(rows).toHaveLength(57);
      await expectReservedIsLeased(store, [token.id], ["hal"]);
    });
  });
}

contract(sqliteDriver);
if (pgUp) contract(postgresDriver);
else describe.skip("Store contract: postgres (server unreachable)", () => it("skipped", () => {}));
