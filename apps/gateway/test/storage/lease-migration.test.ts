import { describe, expect, it } from "vitest";
import { Accounting } from "../../src/billing/accounting.ts";
import { billingSchema } from "../../src/config/config-schema.ts";
import { createLogger } from "../../src/log/logger.ts";
import { MIGRATIONS, sqlFor } from "../../src/storage/migrations.ts";
import { openPostgres } from "../../src/storage/postgres-connection.ts";
import type { SqlConnection } from "../../src/storage/sql-connection.ts";
import { SqlStore } from "../../src/storage/sql-store.ts";
import { openSqlite } from "../../src/storage/sqlite-connection.ts";
import { dropSchema, freshSchema, POSTGRES_URL, postgresReachable } from "./drivers.ts";

// Migration 3 replaces per-call reservations with leases. A database of version 2 may hold
// reservations still open (calls in flight under the old code, or left by a process that died):
// their holds must survive as leases (so reserved = the sum of lease rows from then on) of a
// pseudo-instance whose heartbeat is long past, which the first start reclaims.

const pgUp = await postgresReachable();

async function atVersion2(db: SqlConnection): Promise<void> {
  await db.exec(
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
  );
  for (const migration of MIGRATIONS.filter((m) => m.version <= 2)) {
    await db.exec(sqlFor(migration, db.dialect));
    await db.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 0)", [
      migration.version,
      migration.name,
    ]);
  }
  await db.run("INSERT INTO users (id, quota, reserved, created_at) VALUES ('u', 1000, 70, 0)");
  await db.run(
    `INSERT INTO tokens (id, key_hash, key_hint, name, user_id, quota, reserved, source, created_at)
     VALUES (1, 'a', 'a', 'a', 'u', 500, 40, 'api', 0), (2, 'b', 'b', 'b', 'u', 0, 0, 'api', 0)`,
  );
  // Open: r1 on token 1 and the user, r2 on token 1 and the user, r3 an unlimited token's call
  // (user only). Settled and refunded ones held nothing any more.
  await db.run(
    `INSERT INTO reservations (id, token_id, user_id, amount, hold_token, hold_user, status, created_at)
     VALUES ('r1', 1, 'u', 25, TRUE, TRUE, 'reserved', 0),
            ('r2', 1, 'u', 15, TRUE, TRUE, 'reserved', 0),
            ('r3', 2, 'u', 30, FALSE, TRUE, 'reserved', 0),
            ('r4', 1, 'u', 99, TRUE, TRUE, 'settled', 0),
            ('r5', 1, 'u', 77, TRUE, TRUE, 'refunded', 0)`,
  );
}

async function migrated(db: SqlConnection) {
  const store = new SqlStore(db);
  await atVersion2(db);
  // 3 and whatever came after it (4: tasks, 5: files).
  expect(await store.migrate()).toEqual(MIGRATIONS.map((m) => m.version).filter((v) => v >= 3));
  const leases = await store.listLeases();
  expect(
    leases.map(({ owner, kind, subject, amount }) => ({ owner, kind, subject, amount })),
  ).toEqual(
    expect.arrayContaining([
      { owner: "pre-lease-reservations", kind: "token", subject: "1", amount: 40 },
      { owner: "pre-lease-reservations", kind: "user", subject: "u", amount: 70 },
    ]),
  );
  expect(leases).toHaveLength(2);
  expect(await store.getToken(1)).toMatchObject({ reserved: 40 });
  expect(await store.getUser("u")).toMatchObject({ reserved: 70 });
  const open = await db.all("SELECT COUNT(*) AS n FROM reservations WHERE status = 'reserved'");
  expect(Number(open[0]?.["n"])).toBe(0);
  // The first start reclaims them: nothing is held any more, nothing was charged.
  const accounting = new Accounting(
    store,
    billingSchema.parse({}),
    createLogger({ level: "silent" }),
    {
      timers: false,
    },
  );
  await accounting.start();
  expect(await store.listLeases()).toEqual([]);
  expect(await store.getToken(1)).toMatchObject({ reserved: 0, used: 0 });
  expect(await store.getUser("u")).toMatchObject({ reserved: 0, used: 0 });
  await accounting.close();
}

describe("migration 3: open reservations become reclaimable leases", () => {
  it("sqlite", async () => {
    const db = openSqlite(":memory:");
    try {
      await migrated(db);
    } finally {
      await db.close();
    }
  });

  it.skipIf(!pgUp)("postgres", async () => {
    const schema = freshSchema("mig");
    const db = await openPostgres(POSTGRES_URL, { schema, max: 4 });
    try {
      await migrated(db);
    } finally {
      await db.close();
      await dropSchema(schema);
    }
  });
});
