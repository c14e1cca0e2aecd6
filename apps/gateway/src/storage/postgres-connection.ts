import pg from "pg";
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

const over = (client: pg.Pool | pg.PoolClient): Omit<SqlConnection, "transaction" | "close"> => ({
  dialect: "postgres",
  all: async (sql, params = []) =>
    (await client.query(numbered(sql), params as SqlValue[] as unknown[])).rows,
  run: async (sql, params = []) =>
    (await client.query(numbered(sql), params as SqlValue[] as unknown[])).rowCount ?? 0,
  exec: async (sql) => {
    await client.query(sql);
  },
});

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
    types,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on("error", () => {});
  if (schema !== undefined) await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  return {
    ...over(pool),
    async transaction(body) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await body({
          ...over(client),
          transaction: () => Promise.reject(new Error("nested transaction")),
          close: async () => {},
        });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
