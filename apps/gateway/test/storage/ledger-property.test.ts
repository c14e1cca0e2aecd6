import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Accounting, type Hold, LEASE_DEFAULTS } from "../../src/billing/accounting.ts";
import { billingSchema } from "../../src/config/config-schema.ts";
import { createLogger } from "../../src/log/logger.ts";
import type { Store, UsageLogInput } from "../../src/storage/store.ts";
import {
  type Driver,
  expectReservedIsLeased,
  postgresDriver,
  postgresReachable,
  sqliteDriver,
  usageLog,
} from "./drivers.ts";

const pgUp = await postgresReachable();

// Two gateway instances (two Accounting objects, each with its own lease owner id) on one
// database, driven by a random sequence of operations: reserves on a limited and an unlimited
// token of one limited user, settlements (at, below and above the hold: a cost above it is charged
// the hold, issue 15 item 3), refunds, idle give-backs,
// flushes, and an instance going silent long enough for the other to reclaim its leases (after
// which it carries on, finds out, and charges its calls in flight without a hold).

type Op =
  | { kind: "reserve"; at: 0 | 1; amount: number; unlimited: boolean }
  | { kind: "settle"; pick: number; cost: number }
  | { kind: "refund"; pick: number }
  | { kind: "idle"; at: 0 | 1 }
  | { kind: "flush"; at: 0 | 1 }
  // Instance `dead` misses its heartbeats past the limit; the other one reclaims its leases.
  | { kind: "reclaim"; dead: 0 | 1 };

const at = fc.constantFrom(0 as const, 1 as const);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("reserve" as const),
      at,
      amount: fc.nat(400),
      unlimited: fc.boolean(),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("settle" as const),
      pick: fc.nat(),
      cost: fc.nat(600),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("refund" as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("idle" as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("flush" as const), at }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reclaim" as const), dead: at }) },
);

const row = (requestId: string, credits: number, tokenId: number): UsageLogInput =>
  usageLog({ requestId, credits, tokenId });

interface Open {
  readonly hold: Hold;
  readonly at: 0 | 1;
  readonly tokenId: number;
  /** Its instance's leases were reclaimed while it was open: it settles without a hold. */
  unheld: boolean;
}

/**
 * What an instance believes of its leases is what the database holds: each live lease's row has
 * exactly its `leased` credits (unless another instance reclaimed the rows and this one has not
 * noticed yet), and no lease ever has less than nothing free.
 */
async function expectLeasesKnown(store: Store, instance: Accounting, reclaimed: boolean) {
  const rows = await store.listLeases();
  for (const lease of instance.leases()) {
    expect(lease.free).toBeGreaterThanOrEqual(0);
    if (!lease.hasRow) continue;
    const found = rows.find(
      (r) => r.owner === lease.owner && r.kind === lease.kind && r.subject === lease.subject,
    );
    if (found === undefined) expect(reclaimed).toBe(true);
    else expect(found.amount).toBe(lease.leased);
  }
}

/** reserved = the sum of lease rows, for the token and the user; no lease below zero. */
async function expectLeasesAddUp(store: Store, tokenId: number) {
  await expectReservedIsLeased(store, [tokenId], ["u"]);
  for (const lease of await store.listLeases()) expect(lease.amount).toBeGreaterThanOrEqual(0);
}

function ledgerProperty(driver: Driver, runs: number) {
  it(`${driver.name}: two instances, any sequence: balance = quota - settled, reserved = leases, overdraft within the bound`, async () => {
    const billing = billingSchema.parse({});
    const log = createLogger({ level: "silent" });
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), fc.nat(2_000), async (ops, quota) => {
        const { store, drop } = await driver.open();
        const clocks: [number, number] = [1_000_000, 1_000_000];
        const instances = ([0, 1] as const).map(
          (i) =>
            new Accounting(store, billing, log, {
              now: () => clocks[i],
              timers: false,
              owner: `gw_prop_${i}`,
            }),
        );
        try {
          const userQuota = quota + 500;
          await store.upsertUser({ id: "u", quota: userQuota, unlimited: false });
          const limited = await store.createToken({
            keyHash: "a",
            keyHint: "a",
            name: "t",
            userId: "u",
            quota,
            unlimited: false,
            source: "api",
          });
          const unlimited = await store.createToken({
            keyHash: "b",
            keyHint: "b",
            name: "t",
            userId: "u",
            quota: 0,
            unlimited: true,
            source: "api",
          });
          const open: Open[] = [];
          const settledOn = new Map<number, number>([
            [limited.id, 0],
            [unlimited.id, 0],
          ]);
          // The README's bound: a call is charged at most its hold, so it may overdraw only by its
          // whole charge when it settled without a hold (its lease reclaimed).
          const overdraftOn = new Map<number, number>([
            [limited.id, 0],
            [unlimited.id, 0],
          ]);
          let overdraftUser = 0;
          let n = 0;
          // Reclaimed by the other instance, under this owner id (cleared once it notices).
          const reclaimed = instances.map((i) => ({ owner: i.owner, yes: false }));
          const take = (pick: number) => open.splice(pick % open.length, 1)[0] as Open;

          for (const step of ops) {
            if (step.kind === "reserve") {
              const token = step.unlimited ? unlimited : limited;
              const reserved = await (instances[step.at] as Accounting).reserve({
                requestId: `r${n++}`,
                tokenId: token.id,
                userId: "u",
                amount: step.amount,
                tokenUnlimited: step.unlimited,
                userUnlimited: false,
              });
              if (reserved.ok) {
                open.push({ hold: reserved.hold, at: step.at, tokenId: token.id, unheld: false });
              }
            } else if (step.kind === "settle" && open.length > 0) {
              const call = take(step.pick);
              call.hold.settle(step.cost, row(call.hold.id, step.cost, call.tokenId));
              const charged = Math.min(step.cost, call.hold.amount);
              settledOn.set(call.tokenId, (settledOn.get(call.tokenId) ?? 0) + charged);
              const over = call.unheld ? charged : 0;
              if (call.tokenId === limited.id) {
                overdraftOn.set(limited.id, (overdraftOn.get(limited.id) ?? 0) + over);
              }
              overdraftUser += over;
            } else if (step.kind === "refund" && open.length > 0) {
              const call = take(step.pick);
              call.hold.refund(row(call.hold.id, 0, call.tokenId));
            } else if (step.kind === "idle") {
              clocks[step.at] += LEASE_DEFAULTS.idleMs;
              await (instances[step.at] as Accounting).maintain();
            } else if (step.kind === "flush") {
              await (instances[step.at] as Accounting).flush();
            } else if (step.kind === "reclaim") {
              const alive = step.dead === 0 ? 1 : 0;
              clocks[alive] = Math.max(clocks[0], clocks[1]) + LEASE_DEFAULTS.staleMs + 1;
              await (instances[alive] as Accounting).maintain();
              for (const call of open) if (call.at === step.dead) call.unheld = true;
              reclaimed[step.dead] = {
                owner: (instances[step.dead] as Accounting).owner,
                yes: true,
              };
            }
            for (const instance of instances) await instance.writePending();
            for (const [i, instance] of instances.entries()) {
              const mark = reclaimed[i] as { owner: string; yes: boolean };
              await expectLeasesKnown(store, instance, mark.yes && mark.owner === instance.owner);
            }
            await expectLeasesAddUp(store, limited.id);
            const token = (await store.getToken(limited.id))!;
            expect(token.quota - token.used).toBeGreaterThanOrEqual(
              -(overdraftOn.get(limited.id) ?? 0),
            );
            const user = (await store.getUser("u"))!;
            expect(user.quota - user.used).toBeGreaterThanOrEqual(-overdraftUser);
          }

          for (const call of open.splice(0)) call.hold.refund(row(call.hold.id, 0, call.tokenId));
          for (const instance of instances) await instance.close();
          const user = (await store.getUser("u"))!;
          const settled = (settledOn.get(limited.id) ?? 0) + (settledOn.get(unlimited.id) ?? 0);
          expect(user.reserved).toBe(0);
          expect(userQuota - user.used).toBe(userQuota - settled);
          const token = (await store.getToken(limited.id))!;
          expect(token.reserved).toBe(0);
          expect(token.used).toBe(settledOn.get(limited.id));
          expect((await store.getToken(unlimited.id))!.used).toBe(settledOn.get(unlimited.id));
          expect((await store.logStats({ userId: "u" })).credits).toBe(settled);
          expect(await store.listLeases()).toEqual([]);
        } finally {
          for (const instance of instances) await instance.close();
          await drop();
        }
      }),
      { numRuns: runs },
    );
  });
}

describe("ledger property", () => {
  ledgerProperty(sqliteDriver, 120);
  if (pgUp) ledgerProperty(postgresDriver, 12);
});
