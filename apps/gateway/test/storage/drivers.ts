import { randomBytes } from "node:crypto";
import pg from "pg";
import { expect } from "vitest";
import { openStore } from "../../src/storage/open-store.ts";
import type { Store, UsageLogInput } from "../../src/storage/store.ts";

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

/**
 * The databases a whole-gateway suite runs on (`describe.each`): SQLite, and PostgreSQL when it
 * answers (in CI it must: postgresReachable throws).
 */
export async function stackDatabases(): Promise<
  { name: string; databaseUrl: string | undefined }[]
> {
  const pgUp = await postgresReachable();
  return [
    { name: "sqlite", databaseUrl: undefined },
    ...(pgUp ? [{ name: "postgres", databaseUrl: POSTGRES_URL }] : []),
  ];
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

/** A random schema name: each test store or gateway keeps its tables in its own. */
export const freshSchema = (prefix: string): string =>
  `${prefix}_${randomBytes(6).toString("hex")}`;

/** Drops a schema with everything in it (`url`: the database it is in). */
export async function dropSchema(schema: string, url = POSTGRES_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/** Each store in its own random schema, dropped afterwards. */
export const postgresDriver: Driver = {
  name: "postgres",
  async open() {
    const schema = freshSchema("t");
    const store = await openStore(POSTGRES_URL, { schema, max: 20 });
    return {
      store,
      async drop() {
        await store.close();
        await dropSchema(schema);
      },
    };
  },
};

/** A usage row of user "u" with no tokens counted: the fields the accounting tests care about. */
export const usageLog = (
  row: Pick<UsageLogInput, "requestId" | "tokenId" | "credits"> & Partial<UsageLogInput>,
): UsageLogInput => ({
  time: 0,
  userId: "u",
  tokenName: "t",
  model: "m",
  channel: undefined,
  endpoint: "chat",
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
  cost: 0,
  latencyMs: 0,
  stream: false,
  status: 200,
  ...row,
});

/** tokens.reserved and users.reserved are the sums of their lease rows. */
export async function expectReservedIsLeased(store: Store, tokenIds: number[], userIds: string[]) {
  const rows = await store.listLeases();
  const sum = (kind: string, subject: string) =>
    rows.filter((r) => r.kind === kind && r.subject === subject).reduce((s, r) => s + r.amount, 0);
  for (const id of tokenIds) {
    expect((await store.getToken(id))?.reserved, `token ${id}`).toBe(sum("token", String(id)));
  }
  for (const id of userIds) {
    expect((await store.getUser(id))?.reserved, `user ${id}`).toBe(sum("user", id));
  }
}
