import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { UsageLogInput } from "../../src/storage/store.ts";
import { type Driver, postgresDriver, postgresReachable, sqliteDriver } from "./drivers.ts";

const pgUp = await postgresReachable();

type Op =
  | { kind: "reserve"; id: number; amount: number; unlimited: boolean }
  | { kind: "settle"; id: number; amount: number }
  | { kind: "refund"; id: number }
  // A restart's refundStale: every open hold is released, and its call may still settle later.
  | { kind: "release-stale" };

// Few ids, so settles and refunds often hit reservations that exist, are done, or never were.
const id = fc.nat(7);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("reserve" as const),
    id,
    amount: fc.nat(400),
    unlimited: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("settle" as const), id, amount: fc.nat(600) }),
  fc.record({ kind: fc.constant("refund" as const), id }),
  fc.record({ kind: fc.constant("release-stale" as const) }),
);

const row = (requestId: string, credits: number): UsageLogInput => ({
  requestId,
  time: 0,
  userId: "u",
  tokenId: 0,
  tokenName: "t",
  model: "m",
  channel: undefined,
  endpoint: "chat",
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
  credits,
  cost: 0,
  latencyMs: 0,
  stream: false,
  status: 200,
});

function ledgerProperty(driver: Driver, runs: number) {
  it(`${driver.name}: after any reserve/settle/refund/release sequence (open holds refunded), balance = quota - settled`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), fc.nat(2_000), async (ops, quota) => {
        const { store, drop } = await driver.open();
        try {
          await store.upsertUser({ id: "u", quota: quota + 500, unlimited: false });
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
          const tokenOf = new Map<string, number>();
          const settledOn = new Map<number, number>([
            [limited.id, 0],
            [unlimited.id, 0],
          ]);
          let settled = 0;
          for (const step of ops) {
            if (step.kind === "release-stale") {
              await store.refundStale(Number.MAX_SAFE_INTEGER);
              continue;
            }
            const name = `r${step.id}`;
            if (step.kind === "reserve") {
              const token = step.unlimited ? unlimited : limited;
              const result = await store.reserve({
                id: name,
                tokenId: token.id,
                userId: "u",
                amount: step.amount,
                holdToken: !step.unlimited,
                holdUser: true,
              });
              if (result === "ok") tokenOf.set(name, token.id);
            } else if (step.kind === "settle") {
              const [done] = await store.settle([
                { id: name, amount: step.amount, log: row(name, step.amount) },
              ]);
              if (done !== "skipped") {
                settled += step.amount;
                const token = tokenOf.get(name)!;
                settledOn.set(token, settledOn.get(token)! + step.amount);
              }
            } else {
              await store.refund(name);
            }
          }
          for (const name of tokenOf.keys()) await store.refund(name);
          const user = (await store.getUser("u"))!;
          expect(user.reserved).toBe(0);
          expect(user.quota - user.used).toBe(quota + 500 - settled);
          const token = (await store.getToken(limited.id))!;
          expect(token.reserved).toBe(0);
          expect(token.quota - token.used).toBe(quota - settledOn.get(limited.id)!);
          expect((await store.getToken(unlimited.id))!.used).toBe(settledOn.get(unlimited.id));
          expect((await store.logStats({ userId: "u" })).credits).toBe(settled);
        } finally {
          await drop();
        }
      }),
      { numRuns: runs },
    );
  });
}

describe("ledger property", () => {
  ledgerProperty(sqliteDriver, 150);
  if (pgUp) ledgerProperty(postgresDriver, 15);
});
