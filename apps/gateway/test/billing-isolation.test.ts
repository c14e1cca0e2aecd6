import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Accounting, type Hold } from "../src/billing/accounting.ts";
import type { SpilledBatch } from "../src/billing/charge-batcher.ts";
import { appendSpill, type SpillPlace, spillPlace } from "../src/billing/spill-journal.ts";
import { billingSchema } from "../src/config/config-schema.ts";
import { errorResponse } from "../src/contract/error-response.ts";
import { createLogger } from "../src/log/logger.ts";
import { thrownRefusal } from "../src/pipeline/thrown-refusal.ts";
import { checkUsageRow } from "../src/storage/check-usage-row.ts";
import type { ChargeBatch, Store, UsageLogInput } from "../src/storage/store.ts";
import { startStack, tokenRow } from "./stack.ts";
import {
  type Driver,
  postgresDriver,
  postgresReachable,
  sqliteDriver,
  usageLog,
} from "./storage/drivers.ts";

// Issue 15, item 1 (and 3, at the accounting): one bad row never blocks the other writes, a row
// is repaired before it is queued, a charge is never above its hold, and settlements shutdown
// could not write are journaled and applied, once, by the next start.

const pgUp = await postgresReachable();
const drivers: Driver[] = pgUp ? [sqliteDriver, postgresDriver] : [sqliteDriver];
const billing = billingSchema.parse({ unit: "Credits" });
const H = 1_000;
/** A request id the wrapped store refuses in a usage row (a row no check foresaw). */
const POISON = "poison";

interface World {
  readonly store: Store;
  readonly tokenId: number;
  readonly lines: string[];
  accounting(wrap?: (store: Store) => Store, spill?: SpillPlace): Accounting;
  close(): Promise<void>;
}

const opened: World[] = [];
afterEach(async () => {
  for (const world of opened.splice(0)) await world.close();
});

async function world(driver: Driver): Promise<World> {
  const { store, drop } = await driver.open();
  await store.upsertUser({ id: "u", quota: 1_000 * H, unlimited: false });
  const token = await store.createToken({
    keyHash: "k",
    keyHint: "k",
    name: "t",
    userId: "u",
    quota: 100 * H,
    unlimited: false,
    source: "api",
  });
  const lines: string[] = [];
  const log = createLogger({ level: "info" }, { write: (line: string) => void lines.push(line) });
  const made: Accounting[] = [];
  const w: World = {
    store,
    tokenId: token.id,
    lines,
    accounting(wrap = (s) => s, spill) {
      const accounting = new Accounting(wrap(store), billing, log, {
        timers: false,
        closeWriteMs: 300,
        ...(spill === undefined ? {} : { spill }),
      });
      made.push(accounting);
      return accounting;
    },
    async close() {
      for (const accounting of made) await accounting.close();
      await drop();
    },
  };
  opened.push(w);
  return w;
}

/** `store` with writeCharges replaced (a Proxy: the store keeps its private fields). */
function withWrites(
  store: Store,
  writeCharges: (batch: ChargeBatch, now: number) => ReturnType<Store["writeCharges"]>,
): Store {
  return new Proxy(store, {
    get(target, name) {
      if (name === "writeCharges") return writeCharges;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * Refuses any batch carrying the poisoned request id in a usage row; with `charge`, also one
 * that charges it (as a dead letter): only keeping it uncharged then succeeds.
 */
const poisoned = (charge: boolean) => (store: Store) =>
  withWrites(store, (batch, now) => {
    const charged = charge && batch.charges.length > 0 ? (batch.deadLetters ?? []) : [];
    const rows = [...batch.logs, ...charged.map((d) => d.log)];
    if (rows.some((row) => row.requestId === POISON)) {
      return Promise.reject(new Error("value out of range for the usage_logs row"));
    }
    return store.writeCharges(batch, now);
  });

async function hold(w: World, accounting: Accounting, requestId: string): Promise<Hold> {
  const reserved = await accounting.reserve({
    requestId,
    tokenId: w.tokenId,
    userId: "u",
    amount: H,
    tokenUnlimited: false,
    userUnlimited: false,
  });
  if (!reserved.ok) throw new Error("not reserved");
  return reserved.hold;
}

const row = (w: World, requestId: string, credits: number): UsageLogInput =>
  usageLog({ requestId, tokenId: w.tokenId, credits });

const msgs = (w: World) => w.lines.map((l) => String(JSON.parse(l).msg));

async function totals(w: World) {
  const token = (await w.store.getToken(w.tokenId))!;
  const user = (await w.store.getUser("u"))!;
  const logs = await w.store.queryLogs({ userId: "u" }, { offset: 0, limit: 1000 });
  return {
    token,
    user,
    rows: logs.items,
    logged: logs.items.reduce((sum, r) => sum + r.credits, 0),
  };
}

describe.each(drivers)("billing isolation ($name)", (driver) => {
  it("a row the database refuses is isolated: the others are written, it is charged and kept as a dead letter", async () => {
    const w = await world(driver);
    const accounting = w.accounting(poisoned(false));
    const ids = Array.from({ length: 9 }, (_, i) => (i === 4 ? POISON : `ok${i}`));
    for (const id of ids) (await hold(w, accounting, id)).settle(100, row(w, id, 100));
    await accounting.writePending();
    expect(accounting.openHolds).toBe(0);
    const t = await totals(w);
    // Every call is charged (the poisoned one too); eight rows are written.
    expect(t.token.used).toBe(900);
    expect(t.user.used).toBe(900);
    expect(t.rows.map((r) => r.requestId).sort()).toEqual(ids.filter((id) => id !== POISON).sort());
    const dead = await w.store.listDeadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ requestId: POISON, applied: true });
    expect(dead[0]?.reason).toContain("value out of range");
    expect(dead[0]?.log.credits).toBe(100);
    expect(msgs(w).some((m) => m.startsWith("billing dead letter"))).toBe(true);
    // Later calls are not held up.
    (await hold(w, accounting, "after")).settle(50, row(w, "after", 50));
    await accounting.flush();
    expect((await totals(w)).token).toMatchObject({ used: 950, reserved: 0 });
  });

  it("a call that cannot be written even as a dead letter with its charge is kept uncharged, and its hold freed", async () => {
    const w = await world(driver);
    const accounting = w.accounting(poisoned(true));
    for (const id of ["a", POISON, "b"])
      (await hold(w, accounting, id)).settle(200, row(w, id, 200));
    await accounting.writePending();
    // Charging it is refused too, so it is kept unapplied and not charged.
    const dead = await w.store.listDeadLetters();
    expect(dead.map((d) => [d.requestId, d.applied])).toEqual([[POISON, false]]);
    expect(dead[0]?.charge).toMatchObject({ tokenId: w.tokenId, userId: "u", credits: 200 });
    await accounting.flush();
    const t = await totals(w);
    expect(t.token).toMatchObject({ used: 400, reserved: 0 });
    expect(t.logged).toBe(400);
    expect(await w.store.listLeases()).toEqual([]);
  });

  it("a call that cannot be written at all stays pending without holding up the others or the shutdown", async () => {
    const w = await world(driver);
    const accounting = w.accounting((store) =>
      withWrites(store, (batch, now) => {
        const rows = [...batch.logs, ...(batch.deadLetters ?? []).map((d) => d.log)];
        return rows.some((row) => row.requestId === POISON)
          ? Promise.reject(new Error("refused whatever its shape"))
          : store.writeCharges(batch, now);
      }),
    );
    for (const id of ["a", POISON, "b"]) {
      (await hold(w, accounting, id)).settle(30, row(w, id, 30));
    }
    await accounting.writePending();
    expect((await totals(w)).token.used).toBe(60);
    await accounting.close();
    expect(msgs(w)).toContain(
      "shutdown could not write every settlement: settlements lost (no journal for this database)",
    );
  });

  it("a database that is down is waited for, not blamed on the data: nothing becomes a dead letter", async () => {
    const w = await world(driver);
    let down = true;
    const accounting = w.accounting((store) =>
      withWrites(store, (batch, now) =>
        down ? Promise.reject(new Error("connection refused")) : store.writeCharges(batch, now),
      ),
    );
    for (const id of ["a", "b", "c"]) (await hold(w, accounting, id)).settle(10, row(w, id, 10));
    await accounting.writePending();
    expect((await totals(w)).token.used).toBe(0);
    down = false;
    await accounting.writePending();
    const t = await totals(w);
    expect(t.token.used).toBe(30);
    expect(t.rows).toHaveLength(3);
    expect(await w.store.listDeadLetters()).toEqual([]);
  });

  it("a database coming back: one more failed write is not blamed on the data either", async () => {
    const w = await world(driver);
    let down = true;
    let failAfterOutage = 1;
    const accounting = w.accounting((store) =>
      withWrites(store, (batch, now) => {
        if (down) return Promise.reject(new Error("connection refused"));
        // The first write with rows after the outage meets a connection the restart broke.
        if (batch.logs.length > 0 && failAfterOutage-- > 0) {
          return Promise.reject(new Error("Connection terminated unexpectedly"));
        }
        return store.writeCharges(batch, now);
      }),
    );
    (await hold(w, accounting, "lone")).settle(10, row(w, "lone", 10));
    for (let i = 0; i < 4; i++) await accounting.writePending();
    down = false;
    for (let i = 0; i < 3; i++) await accounting.writePending();
    const t = await totals(w);
    expect(t.token.used).toBe(10);
    expect(t.rows.map((r) => r.requestId)).toEqual(["lone"]);
    expect(await w.store.listDeadLetters()).toEqual([]);
  });

  it("a database coming back cuts writes while it already takes empty ones: not blamed on the data", async () => {
    const w = await world(driver);
    // What a restart looks like from a pool: a server still starting, connections it cut; an
    // empty batch (the check for "is the database up") may well succeed in between.
    const cuts = [
      Object.assign(new Error("the database system is starting up"), { code: "57P03" }),
      new Error("Connection terminated unexpectedly"),
      Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }),
      new Error("Connection terminated unexpectedly"),
    ];
    let left = cuts.length;
    const accounting = w.accounting((store) =>
      withWrites(store, (batch, now) =>
        batch.logs.length > 0 && left > 0
          ? Promise.reject(cuts[cuts.length - left--])
          : store.writeCharges(batch, now),
      ),
    );
    (await hold(w, accounting, "lone")).settle(10, row(w, "lone", 10));
    for (let i = 0; i <= cuts.length; i++) await accounting.writePending().catch(() => undefined);
    const t = await totals(w);
    expect(t.rows.map((r) => r.requestId)).toEqual(["lone"]);
    expect(t.token.used).toBe(10);
    expect(await w.store.listDeadLetters()).toEqual([]);
  });

  it("a row whose every write ends in a cut connection is still isolated, after a pool's worth", async () => {
    const w = await world(driver);
    const accounting = w.accounting((store) =>
      withWrites(store, (batch, now) =>
        batch.logs.some((log) => log.requestId === POISON)
          ? Promise.reject(new Error("Connection terminated unexpectedly"))
          : store.writeCharges(batch, now),
      ),
    );
    (await hold(w, accounting, POISON)).settle(10, row(w, POISON, 10));
    (await hold(w, accounting, "fine")).settle(20, row(w, "fine", 20));
    for (let i = 0; i < 30; i++) await accounting.writePending().catch(() => undefined);
    const t = await totals(w);
    expect(t.rows.map((r) => r.requestId)).toEqual(["fine"]);
    expect(t.token.used).toBe(30);
    expect((await w.store.listDeadLetters()).map((d) => d.requestId)).toEqual([POISON]);
  });

  it("rows are repaired before they are queued: no status, NaN, NUL bytes, a huge error", async () => {
    const w = await world(driver);
    const accounting = w.accounting();
    const bad = {
      ...row(w, "bad\u0000id", 70),
      status: undefined as unknown as number,
      latencyMs: Number.NaN,
      error: `Maximum call stack size exceeded\u0000 \ud800 ${"x".repeat(100_000)}`,
    };
    (await hold(w, accounting, "bad")).settle(70, bad);
    await accounting.flush();
    const t = await totals(w);
    expect(t.token.used).toBe(70);
    expect(t.rows).toHaveLength(1);
    const written = t.rows[0]!;
    expect(written).toMatchObject({ requestId: "badid", status: 500, latencyMs: 0, credits: 70 });
    expect(written.error?.length).toBeLessThanOrEqual(2_000);
    expect(written.error).not.toContain("\u0000");
    expect(msgs(w)).toContain(
      "a usage row had fields the database cannot take: repaired before writing",
    );
  });

  it("a cost above the hold is charged the hold, and the row says what was claimed", async () => {
    const w = await world(driver);
    const accounting = w.accounting();
    (await hold(w, accounting, "liar")).settle(1e15, row(w, "liar", 1e15));
    (await hold(w, accounting, "nan")).settle(Number.NaN, row(w, "nan", 0));
    (await hold(w, accounting, "fair")).settle(H - 1, row(w, "fair", H - 1));
    await accounting.flush();
    const t = await totals(w);
    expect(t.token.used).toBe(3 * H - 1);
    expect(t.logged).toBe(3 * H - 1);
    const byId = new Map(t.rows.map((r) => [r.requestId, r]));
    expect(byId.get("liar")).toMatchObject({ credits: H, uncappedCredits: 1e15 });
    expect(byId.get("fair")?.uncappedCredits).toBeUndefined();
    expect(byId.get("nan")?.credits).toBe(H);
    expect(msgs(w)).toContain("usage reported above what the request could cost: charged its hold");
  });

  it("settlements shutdown could not write are journaled; the next start applies them exactly once", async () => {
    const w = await world(driver);
    const dir = mkdtempSync(join(tmpdir(), "interlingua-spill-"));
    try {
      const place: SpillPlace = { dir, key: "test" };
      let down = false;
      let lostAnswer = true;
      const first = w.accounting(
        (store) =>
          withWrites(store, async (batch, now) => {
            if (down) throw new Error("connection refused");
            const outcome = await store.writeCharges(batch, now);
            // The first batch commits, and its answer is lost: it must not be applied twice.
            if (lostAnswer) {
              lostAnswer = false;
              down = true;
              throw new Error("connection lost after COMMIT");
            }
            return outcome;
          }),
        place,
      );
      (await hold(w, first, "committed")).settle(100, row(w, "committed", 100));
      await first.writePending();
      for (const id of ["q1", "q2"]) (await hold(w, first, id)).settle(10, row(w, id, 10));
      const late = await hold(w, first, "late");
      await first.close();
      // A call that settles after shutdown goes to the journal as well.
      late.settle(1, row(w, "late", 1));
      const journals = readdirSync(dir);
      expect(journals).toHaveLength(1);
      const copy = join(dir, "copy.jsonl");
      copyFileSync(join(dir, journals[0]!), copy);
      expect((await totals(w)).token.used).toBe(100);

      const second = w.accounting(undefined, place);
      await second.start();
      const t = await totals(w);
      expect(t.token.used).toBe(121);
      expect(t.user.used).toBe(121);
      expect(t.rows.map((r) => r.requestId).sort()).toEqual(["committed", "late", "q1", "q2"]);
      expect(readdirSync(dir)).toEqual(["copy.jsonl"]);

      // The same journal again (a crash before it was removed, or a second instance): no change.
      copyFileSync(copy, join(dir, "pending-charges-test-again.jsonl"));
      rmSync(copy);
      const third = w.accounting(undefined, place);
      await third.start();
      const again = await totals(w);
      expect(again.token.used).toBe(121);
      expect(again.rows).toHaveLength(4);
      expect(readdirSync(dir)).toEqual([]);
      await third.close();
      await second.close();
      // Everything given back: nothing is left reserved.
      expect((await totals(w)).token.reserved).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("usage row checks", () => {
  it("a good row passes untouched; text is cut without splitting a surrogate pair", () => {
    const good = usageLog({ requestId: "r", tokenId: 1, credits: 5 });
    expect(checkUsageRow(good)).toEqual({ row: good, problems: [] });
    const long = checkUsageRow({ ...good, model: `${"a".repeat(254)}😀😀` });
    expect(long.problems).toEqual(["model"]);
    expect(long.row.model).toBe(`${"a".repeat(254)}…`);
    expect(checkUsageRow({ ...good, credits: -3, status: 99 }).row).toMatchObject({
      credits: 0,
      status: 500,
    });
  });

  it("a journal is only kept for a database that outlives the process", () => {
    expect(spillPlace("sqlite::memory:", "/d")).toBeUndefined();
    const a = spillPlace("sqlite:./data/gw.db", "/d");
    const b = spillPlace("postgres://db/x", "/d");
    expect(a?.dir).toBe("/d");
    expect(a?.key).not.toBe(b?.key);
  });
});

describe("the journal through the gateway", () => {
  it("a gateway applies its database's journal at start, once, and only its own database's", async () => {
    const dir = mkdtempSync(join(tmpdir(), "interlingua-journal-"));
    const databaseUrl = `sqlite:${join(dir, "gw.db")}`;
    const options = { dataDir: dir };
    const config = {
      databaseUrl,
      users: [{ id: "j", quota: 1_000_000 }],
      tokens: [{ key: "sk-journal", user: "j", quota: 100_000, name: "journal" }],
    };
    try {
      const first = await startStack(config, options);
      const tokenId = (await tokenRow(first, "sk-journal")).id;
      await first.close();
      // What a previous run left: one charge of 321 credits, with its row; and a journal of
      // another database, which must not be touched.
      const owed: SpilledBatch = {
        id: "journaled-batch",
        stage: "whole",
        calls: [
          {
            log: usageLog({
              requestId: "owed",
              userId: "j",
              tokenId,
              tokenName: "journal",
              credits: 321,
            }),
            charge: {
              tokenId,
              userId: "j",
              credits: 321,
              tokenOwner: "gw_gone",
              tokenConsumed: 321,
              userOwner: "gw_gone",
              userConsumed: 321,
            },
          },
        ],
      };
      appendSpill(spillPlace(databaseUrl, dir)!, "gw_gone", [owed]);
      appendSpill(spillPlace("sqlite:/elsewhere.db", dir)!, "gw_other", [owed]);
      for (let run = 0; run < 2; run++) {
        const again = await startStack(config, options);
        try {
          const token = await tokenRow(again, "sk-journal");
          expect(token.used).toBe(321);
          const logs = await again.gateway.services.store.queryLogs(
            { userId: "j" },
            { offset: 0, limit: 10 },
          );
          expect(logs.items.map((r) => r.requestId)).toEqual(["owed"]);
        } finally {
          await again.close();
        }
        // Applied and removed; the other database's journal is left alone.
        expect(readdirSync(dir).filter((n) => n.startsWith("pending-charges-"))).toHaveLength(1);
        if (run === 0) appendSpill(spillPlace(databaseUrl, dir)!, "gw_gone", [owed]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("foreign errors never pass as GatewayErrors", () => {
  it("a stack overflow while translating is a 400, anything else a 500, never a status-less 200", async () => {
    expect(thrownRefusal(new RangeError("Maximum call stack size exceeded"))).toMatchObject({
      status: 400,
      type: "invalid_request_error",
    });
    const other = thrownRefusal(new TypeError("cannot read x of undefined"));
    expect(other.status).toBe(500);
    expect(other.message).not.toContain("cannot read");
    // The envelope's renderer copes with a foreign error cast to a GatewayError, too.
    const response = errorResponse("standard", new RangeError("boom") as never, "req_x");
    expect(response.status).toBe(500);
    expect(JSON.stringify(await response.json())).not.toContain("boom");
  });
});
