import pg from "pg";
import { asDatabaseError, isDatabaseUnavailable } from "./database-unavailable.ts";
import type { SqlConnection, SqlValue } from "./sql-connection.ts";

// int8 (counts, credits) and numeric (their sums) as JS numbers: every amount stays below 2^53.
const types = {
  getTypeParser: (oid: number, format?: string) =>
    oid === 20 || oid === 1700
      ? (value: string) => Number(value)
      : (pg.types.getTypeParser as (oid: number, format?: string) => unknown)(oid, format),
};

/** `?` placeholders, numbered the way Postgres wants them. */
const numbered = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

/** A query whose outage errors become `databaseUnavailable` (503 with Retry-After). */
async function query(client: pg.Pool | pg.PoolClient, sql: string, params?: unknown[]) {
  try {
    return await client.query(sql, params);
  } catch (error) {
    throw asDatabaseError(error);
  }
}

const over = (client: pg.Pool | pg.PoolClient): Omit<SqlConnection, "transaction" | "close"> => ({
  dialect: "postgres",
  all: async (sql, params = []) =>
    (await query(client, numbered(sql), params as SqlValue[] as unknown[])).rows,
  run: async (sql, params = []) =>
    (await query(client, numbered(sql), params as SqlValue[] as unknown[])).rowCount ?? 0,
  exec: async (sql) => {
    await query(client, sql);
  },
});

/** How long taking a connection may wait: an unreachable database answers 503, not a hang. */
const CONNECT_TIMEOUT_MS = 5_000;

export interface PostgresOptions {
  /** A schema to create (if missing) and use for every connection: tests isolate in their own. */
  readonly schema?: string;
  readonly max?: number;
}

export async function openPostgres(
  url: string,
  options: PostgresOptions = {},
): Promise<SqlConnection> {
  const schema = options.schema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) {
    throw new Error(`invalid schema name ${schema}`);
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    types,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle client that loses its server must not crash the process; the pool drops it and the
  // next query connects anew.
  pool.on("error", () => {});
  if (schema !== undefined) await query(pool, `CREATE SCHEMA IF NOT EXISTS ${schema}`);
  return {
    ...over(pool),
    async transaction(body) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw asDatabaseError(error);
      }
      // A checked-out client whose server goes away emits 'error' outside any query: without
      // a listener that is an uncaught exception. The failure also reaches the query under way.
      let broken: unknown;
      const onError = (error: unknown) => {
        broken ??= error;
      };
      client.on("error", onError);
      try {
        await query(client, "BEGIN");
        const result = await body({
          ...over(client),
          transaction: () => Promise.reject(new Error("nested transaction")),
          close: async () => {},
        });
        await query(client, "COMMIT");
        return result;
      } catch (error) {
        if (broken === undefined && isDatabaseUnavailable(error)) broken = error;
        if (broken === undefined) await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.off("error", onError);
        // A broken client is destroyed, not pooled again: the next call would inherit its socket.
        client.release(broken === undefined ? undefined : asError(broken));
      }
    },
    close: () => pool.end(),
  };
}

const asError = (value: unknown): Error =>
  value instanceof Error ? value : new Error(String(value));
