import { randomBytes } from "node:crypto";
import pg from "pg";
import { openStore } from "../../src/storage/open-store.ts";
import type { Store } from "../../src/storage/store.ts";

export const POSTGRES_URL =
  process.env["TEST_DATABASE_URL"] ?? "postgres://postgres@127.0.0.1:5432/test";

/** Set (and not "false" or "0") in CI; turbo passes it through to the tests. */
export const IN_CI = !["", "0", "false"].includes((process.env["CI"] ?? "").toLowerCase());

/**
 * Whether the test PostgreSQL answers. Locally an unreachable server skips the Postgres half of
 * the tests with a loud warning; in CI (`CI` set) it fails the run instead, so CI can never
 * pass without really running them.
 */
export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch (error) {
    const reason = `PostgreSQL at ${POSTGRES_URL} is unreachable (${(error as Error).message})`;
    if (IN_CI) {
      throw new Error(`${reason}: CI must run the Postgres tests (set TEST_DATABASE_URL).`);
    }
    console.warn(
      `\n!!! ${reason}: the Postgres half of the tests is SKIPPED. ` +
        'Start it (see the gateway README, "Postgres tests"; CI does).\n',
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
