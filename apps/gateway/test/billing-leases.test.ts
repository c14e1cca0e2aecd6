import { afterEach, describe, expect, it } from "vitest";
import { Accounting, type Hold, LEASE_DEFAULTS } from "../src/billing/accounting.ts";
import { tokenBalance, userBalance } from "../src/billing/balances.ts";
import { LeaseAwareStore } from "../src/billing/lease-aware-store.ts";
import { billingSchema } from "../src/config/config-schema.ts";
import { createLogger } from "../src/log/logger.ts";
import { openStore } from "../src/storage/open-store.ts";
import type { Store, UsageLogInput } from "../src/storage/store.ts";
import {
  dropSchema,
  freshSchema,
  POSTGRES_URL,
  postgresReachable,
  usageLog,
} from "./storage/drivers.ts";

// Quota leases across gateway instances: two Accounting objects ("instances") on one database,
// each with its own clock so heartbeats and their limit are tested without waiting. On Postgres
// each instance has its own connection pool, as two processes would; SQLite is one process's
// database, so there the two share its one connection.

const pgUp = await postgresReachable();
const billing = billingSchema.parse({ unit: "Credits" });
const H = 1_000; // every call below holds this much

interface Instance {
  readonly accounting: Accounting;
  readonly store: Store;
  /** Its clock: tests move it. */
  readonly clock: { now: number };
}

interface World {
  readonly a: Instance;
  readonly b: Instance;
  readonly tokenId: number;
  /** Log lines of both instances, parsed. */
  readonly logs: Record<string, unknown>[];
  /** The database as it is (no instance's view). */
  readonly db: Store;
  close(): Promise<void>;
}

const START = 1_000_000_000;

async function openStores(driver: "sqlite" | "postgres") {
  if (driver === "sqlite") {
    const store = await openStore("sqlite::memory:");
    return { stores: [store, store] as const, drop: () => store.close() };
  }
  const schema = freshSchema("lease");
  const first = await openStore(POSTGRES_URL, { schema, max: 8 });
  const second = await openStore(POSTGRES_URL, { schema, max: 8 });
  return {
    stores: [first, second] as const,
    async drop() {
      await first.close();
      await second.close();
      await dropSchema(schema);
    },
  };
}

async function world(
  driver: "sqlite" | "postgres",
  quota: { token: number; user: number },
  wrap: (store: Store) => Store = (store) => store,
): Promise<World> {
  const { stores, drop } = await openStores(driver);
  const lines: string[] = [];
  const log = createLogger({ level: "info" }, { write: (line: string) => void lines.push(line) });
  await stores[0].upsertUser({ id: "u", quota: quota.user, unlimited: false });
  const token = await stores[0].createToken({
    keyHash: "k",
    keyHint: "k",
    name: "shared",
    userId: "u",
    quota: quota.token,
    unlimited: false,
    source: "api",
  });
  const instance = (store: Store, owner: string): Instance => {
    const clock = { now: START };
    const wrapped = wrap(store);
    const accounting = new Accounting(wrapped, billing, log, {
      now: () => clock.now,
      timers: false,
      owner,
    });
    return { accounting, store: wrapped, clock };
  };
  const a = instance(stores[0], "gw_a");
  const b = instance(stores[1], "gw_b");
  return {
    a,
    b,
    tokenId: token.id,
    db: stores[0],
    get logs() {
      return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    async close() {
      await a.accounting.close();
      await b.accounting.close();
      await drop();
    },
  };
}

/** `store` with some methods replaced (a Proxy: the store keeps its private fields). */
function overriding(store: Store, patch: Partial<Store>): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property in patch) return patch[property as keyof Store];
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

let requests = 0;
const reserve = (w: World, at: Instance, amount = H) =>
  at.accounting.reserve({
    requestId: `req-${requests++}`,
    tokenId: w.tokenId,
    userId: "u",
    amount,
    tokenUnlimited: false,
    userUnlimited: false,
  });

const usageRow = (w: World, hold: Hold, credits: number): UsageLogInput =>
  usageLog({ requestId: hold.id, tokenId: w.tokenId, tokenName: "shared", credits, cost: credits });

async function held(w: World, at: Instance, amount = H): Promise<Hold> {
  const outcome = await reserve(w, at, amount);
  if (!outcome.ok) throw new Error(`refused: ${outcome.short}`);
  return outcome.hold;
}

/** The database's token row, and what its lease rows add up to (always its `reserved`). */
async function tokenState(w: World) {
  const token = (await w.db.getToken(w.tokenId))!;
  const leases = (await w.db.listLeases()).filter(
    (l) => l.kind === "token" && l.subject === String(w.tokenId),
  );
  expect(token.reserved).toBe(leases.reduce((sum, l) => sum + l.amount, 0));
  return { token, leases };
}

const drivers = ["sqlite", ...(pgUp ? ["postgres" as const] : [])] as const;

describe.each(drivers)("quota leases, two instances on one database (%s)", (driver) => {
  let w: World | undefined;
  afterEach(async () => {
    await w?.close();
    w = undefined;
  });

  it("together they never overspend: exactly the holds the quota covers are granted", async () => {
    w = await world(driver, { token: 40 * H, user: 1_000 * H });
    const world_ = w;
    const outcomes = await Promise.all(
      Array.from({ length: 120 }, (_, i) => reserve(world_, i % 2 === 0 ? world_.a : world_.b)),
    );
    const granted = outcomes.filter((o) => o.ok);
    expect(granted).toHaveLength(40);
    expect(outcomes.filter((o) => !o.ok && o.short === "token")).toHaveLength(80);
    const { token } = await tokenState(w);
    expect(token.reserved).toBe(40 * H);
    let costs = 0;
    for (const [i, outcome] of granted.entries()) {
      if (!outcome.ok) continue;
      const cost = H - (i % 7);
      costs += cost;
      outcome.hold.settle(cost, usageRow(world_, outcome.hold, cost));
    }
    await w.a.accounting.flush();
    await w.b.accounting.flush();
    const after = await tokenState(w);
    expect(after.token).toMatchObject({ used: costs, reserved: 0 });
    expect(after.leases).toEqual([]);
    expect(after.token.quota - after.token.used).toBeGreaterThanOrEqual(0);
    expect((await w.db.logStats({ userId: "u" })).credits).toBe(costs);
  });

  it("a lease grows by one transaction at a time, shared by the reserves waiting on it (single flight)", async () => {
    let grows = 0;
    let most = 0;
    const growing = new Map<string, number>();
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    w = await world(driver, { token: 1_000 * H, user: 1_000 * H }, (store) =>
      overriding(store, {
        // Every growth waits at the gate, so the second wave of reserves arrives mid-growth.
        takeLease: async (key, sizes, now, exists) => {
          grows++;
          const name = `${key.kind}:${key.subject}`;
          growing.set(name, (growing.get(name) ?? 0) + 1);
          most = Math.max(most, growing.get(name) ?? 0);
          try {
            await gate;
            return await store.takeLease(key, sizes, now, exists);
          } finally {
            growing.set(name, (growing.get(name) ?? 0) - 1);
          }
        },
      }),
    );
    const world_ = w;
    const first = Array.from({ length: 25 }, () => reserve(world_, world_.a));
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = Array.from({ length: 25 }, () => reserve(world_, world_.a));
    await new Promise((resolve) => setTimeout(resolve, 10));
    // One growth of the token's lease is under way; all fifty reserves wait for it.
    expect(grows).toBe(1);
    open();
    const outcomes = await Promise.all([...first, ...second]);
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(most).toBe(1);
    // Per subject: one growth for the first wave, one for those that came while it was written.
    expect(grows).toBe(4);
    // Settled and reserved again: no I/O at all, the lease has room.
    for (const o of outcomes) if (o.ok) o.hold.settle(10, usageRow(world_, o.hold, 10));
    await Promise.all(Array.from({ length: 40 }, () => held(world_, world_.a)));
    expect(grows).toBe(4);
    expect((await tokenState(w)).leases).toHaveLength(1);
  });

  it("idle lease comes back after the idle time, and then the other instance can use it", async () => {
    w = await world(driver, { token: 10 * H, user: 1_000 * H });
    const hold = await held(w, w.a);
    hold.settle(300, usageRow(w, hold, 300));
    await w.a.accounting.writePending();
    const before = await tokenState(w);
    expect(before.token).toMatchObject({ used: 300, reserved: H - 300 });
    // What is left (all but a's free lease) is not enough for everything that remains.
    expect(await reserve(w, w.b, 10 * H - 300)).toEqual({ ok: false, short: "token" });
    w.a.clock.now += LEASE_DEFAULTS.idleMs - 1;
    await w.a.accounting.maintain();
    expect((await tokenState(w)).token.reserved).toBe(H - 300);
    w.a.clock.now += 1;
    await w.a.accounting.maintain();
    const after = await tokenState(w);
    expect(after.token).toMatchObject({ used: 300, reserved: 0 });
    expect(after.leases).toEqual([]);
    expect((await reserve(w, w.b, 10 * H - 300)).ok).toBe(true);
  });

  it("a killed instance's leases are reclaimed once its heartbeat is older than the limit", async () => {
    w = await world(driver, { token: 10 * H, user: 1_000 * H });
    await held(w, w.a);
    await held(w, w.a);
    // a dies here: no more heartbeats, no settlements.
    const withA = await tokenState(w);
    expect(withA.token.reserved).toBe(2 * H);
    w.b.clock.now += LEASE_DEFAULTS.staleMs / 2;
    await w.b.accounting.maintain();
    expect((await tokenState(w)).token.reserved).toBe(2 * H);
    expect(await reserve(w, w.b, 10 * H)).toEqual({ ok: false, short: "token" });
    w.b.clock.now += LEASE_DEFAULTS.staleMs / 2 + 1;
    await w.b.accounting.maintain();
    const after = await tokenState(w);
    expect(after.token).toMatchObject({ used: 0, reserved: 0 });
    expect(w.logs.some((l) => String(l["msg"]).includes("reclaimed the leases"))).toBe(true);
    expect((await reserve(w, w.b, 10 * H)).ok).toBe(true);
  });

  it("an instance whose leases were reclaimed still charges its calls in flight, once, without a hold", async () => {
    w = await world(driver, { token: 10 * H, user: 1_000 * H });
    const first = await held(w, w.a);
    const second = await held(w, w.a);
    const ownerBefore = w.a.accounting.owner;
    // a looked dead (say, a long pause) and b reclaimed its leases; a does not know yet.
    w.b.clock.now += LEASE_DEFAULTS.staleMs + 1;
    await w.b.accounting.maintain();
    expect((await tokenState(w)).token.reserved).toBe(0);
    first.settle(700, usageRow(w, first, 700));
    second.refund(usageRow(w, second, 0));
    await w.a.accounting.writePending();
    const after = await tokenState(w);
    // Charged in full; reserved untouched (the reclaim already gave the whole lease back).
    expect(after.token).toMatchObject({ used: 700, reserved: 0 });
    expect((await w.db.getUser("u"))!).toMatchObject({ used: 700, reserved: 0 });
    expect((await w.db.logStats({ userId: "u" })).requests).toBe(2);
    expect(
      w.logs.some(
        (l) => String(l["msg"]).includes("charged without a hold") && l["requestId"] === first.id,
      ),
    ).toBe(true);
    // The batch found a's lease gone: a dropped its leases and carries on under a new id.
    expect(w.a.accounting.owner).not.toBe(ownerBefore);
    const again = await held(w, w.a);
    again.settle(100, usageRow(w, again, 100));
    await w.a.accounting.flush();
    expect((await tokenState(w)).token).toMatchObject({ used: 800, reserved: 0 });
    // Settling twice changes nothing.
    first.settle(700, usageRow(w, first, 700));
    await w.a.accounting.writePending();
    expect((await tokenState(w)).token.used).toBe(800);
  });

  it("the heartbeat finds this instance's rows reclaimed: its leases are dropped, not reused", async () => {
    w = await world(driver, { token: H, user: H });
    // The whole quota in one call in flight: nothing free, so only the heartbeat can notice.
    const inFlight = await held(w, w.a);
    const ownerBefore = w.a.accounting.owner;
    w.b.clock.now += LEASE_DEFAULTS.staleMs + 1;
    await w.b.accounting.maintain();
    w.a.clock.now += LEASE_DEFAULTS.heartbeatMs;
    await w.a.accounting.maintain();
    expect(w.a.accounting.owner).not.toBe(ownerBefore);
    expect(w.logs.some((l) => String(l["msg"]).includes("the heartbeat found"))).toBe(true);
    // The reclaim gave the quota back: a's next call leases it again, under a's new id.
    const next = await held(w, w.a);
    expect((await tokenState(w)).leases.map((l) => l.owner)).toEqual([w.a.accounting.owner]);
    inFlight.settle(H, usageRow(w, inFlight, H));
    next.settle(H, usageRow(w, next, H));
    await w.a.accounting.flush();
    // The call whose lease was reclaimed was charged without a hold: an overdraft of its whole
    // cost, the README's bound for such calls.
    expect((await tokenState(w)).token).toMatchObject({ quota: H, used: 2 * H, reserved: 0 });
    expect(await w.db.getUser("u")).toMatchObject({ quota: H, used: 2 * H, reserved: 0 });
  });

  it("balances leave out this instance's free lease: only holds in flight count as held", async () => {
    w = await world(driver, { token: 100 * H, user: 1_000 * H });
    const view = new LeaseAwareStore(w.a.store, w.a.accounting);
    const inFlight = await held(w, w.a, 2 * H);
    const done = await held(w, w.a);
    done.settle(400, usageRow(w, done, 400));
    // Settled but not yet written: counted as held, so remaining is right either way.
    const pending = tokenBalance((await view.getToken(w.tokenId))!, billing);
    expect(pending.remain_credits).toBe(100 * H - 400 - 2 * H);
    await w.a.accounting.writePending();
    const raw = (await w.db.getToken(w.tokenId))!;
    // The database holds the whole lease (several holds' worth)...
    expect(raw.reserved).toBeGreaterThan(2 * H);
    // ...the balances count the call in flight only.
    const seen = (await view.getToken(w.tokenId))!;
    expect(seen).toMatchObject({ used: 400, reserved: 2 * H });
    expect(tokenBalance(seen, billing)).toMatchObject({
      remain_credits: 100 * H - 400 - 2 * H,
      used_credits: 400,
    });
    expect(userBalance((await view.getUser("u"))!, billing).remain_credits).toBe(
      1_000 * H - 400 - 2 * H,
    );
    // Setting the remaining quota gives the free lease back first: what is set is what is seen.
    const updated = await view.updateToken(w.tokenId, "u", { remaining: 5 * H });
    expect(tokenBalance(updated!, billing).remain_credits).toBe(5 * H);
    expect((await w.db.getToken(w.tokenId))!.reserved).toBe(2 * H);
    // The call in flight held 2H and costs H: the other H comes back to what is left.
    inFlight.settle(H, usageRow(w, inFlight, H));
    await w.a.accounting.flush();
    expect(tokenBalance((await view.getToken(w.tokenId))!, billing).remain_credits).toBe(6 * H);
  });

  it("a batch whose commit answer was lost is retried without charging twice", async () => {
    let failures = 0;
    w = await world(driver, { token: 100 * H, user: 1_000 * H }, (store) =>
      overriding(store, {
        writeCharges: async (batch, now) => {
          const outcome = await store.writeCharges(batch, now);
          // The first batch commits, then its answer is lost (a dropped connection, say).
          if (failures++ === 0) throw new Error("connection lost after COMMIT");
          return outcome;
        },
      }),
    );
    const hold = await held(w, w.a);
    hold.settle(250, usageRow(w, hold, 250));
    await w.a.accounting.writePending();
    expect(failures).toBe(2);
    const { token } = await tokenState(w);
    expect(token.used).toBe(250);
    expect((await w.db.logStats({ userId: "u" })).requests).toBe(1);
    expect(w.logs.some((l) => String(l["msg"]).includes("will be retried"))).toBe(true);
    await w.a.accounting.flush();
    expect((await tokenState(w)).token).toMatchObject({ used: 250, reserved: 0 });
  });

  it("a batch that failed before committing is applied by its retry", async () => {
    let failures = 0;
    w = await world(driver, { token: 100 * H, user: 1_000 * H }, (store) =>
      overriding(store, {
        writeCharges: async (batch, now) => {
          if (failures++ === 0) throw new Error("database unavailable");
          return store.writeCharges(batch, now);
        },
      }),
    );
    const hold = await held(w, w.a);
    hold.settle(250, usageRow(w, hold, 250));
    await w.a.accounting.writePending();
    expect((await tokenState(w)).token.used).toBe(250);
    expect((await w.db.logStats({ userId: "u" })).requests).toBe(1);
  });
});
