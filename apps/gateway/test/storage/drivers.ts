import { randomBytes } from "node:crypto";
import pg from "pg";
import { openStore } from "../../src/storage/open-store.ts";
import type { Store } from "../../src/storage/store.ts";

export const POSTGRES_URL =
  process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

/** Whether the local PostgreSQL answers; when it does not, say so loudly (CI always has it up). */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch (error) {
    console.warn(
      `\n!!! PostgreSQL at ${POSTGRES_URL} is unreachable (${(error as Error).message}): ` +
        "the Postgres half of the storage tests is SKIPPED. Start it (see README, CI does).\n",
    );
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface Driver {
  readonly name: "sqlite" | "postgres";
  /** A fresh, migrated, empty store; `drop` removes whatever it created. */
  open(): Promise<{ store: Store; drop: () => Promise<void> }>;
}

export const sqliteDriver: Driver = {
  name: "sqlite",
  async open() {
    const store = await openStore("sqlite::memory:");
    return { store, drop: () => store.close() };
  },
};

/** Each store in its own random schema, dropped afterwards. */
export const postgresDriver: Driver = {
  name: "postgres",
  async open() {
    const schema = `t_${randomBytes(6).toString("hex")}`;
    const store = await openStore(POSTGRES_URL, { schema, max: 20 });
    return {
      store,
      async drop() {
        await store.close();
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        await client.query(`DROP SCHEMA ${schema} CASCADE`);
        await client.end();
      },
    };
  },
};
