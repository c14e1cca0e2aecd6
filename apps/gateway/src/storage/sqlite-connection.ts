import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import type { SqlConnection, SqlRow, SqlValue } from "./sql-connection.ts";

/**
 * node:sqlite underneath: synchronous, one connection, so a transaction must not interleave with
 * another caller's statements. Transactions take turns through a promise chain; statements
 * outside a transaction wait for the running one.
 */
export function openSqlite(path: string): SqlConnection {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  // Statement journals (a multi-row INSERT or UPDATE inside a transaction) in memory: on disk,
  // every charge batch created, wrote and deleted a temporary file.
  db.exec("PRAGMA temp_store = MEMORY");
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  let turn: Promise<unknown> = Promise.resolve();

  const direct: SqlConnection = {
    dialect: "sqlite",
    all: async (sql, params = []) => prepare(sql).all(...(params as SqlValue[])) as SqlRow[],
    run: async (sql, params = []) => Number(prepare(sql).run(...(params as SqlValue[])).changes),
    transaction: () => {
      throw new Error("nested transaction");
    },
    exec: async (sql) => {
      db.exec(sql);
    },
    close: async () => {},
  };

  const exclusive = <T>(body: () => Promise<T>): Promise<T> => {
    const result = turn.then(body);
    turn = result.catch(() => undefined);
    return result;
  };

  return {
    dialect: "sqlite",
    all: (sql, params) => exclusive(() => direct.all(sql, params)),
    run: (sql, params) => exclusive(() => direct.run(sql, params)),
    exec: (sql) => exclusive(() => direct.exec(sql)),
    transaction: (body) =>
      exclusive(async () => {
        db.exec("BEGIN IMMEDIATE");
        try {
          const result = await body(direct);
          db.exec("COMMIT");
          return result;
        } catch (error) {
          db.exec("ROLLBACK");
          throw error;
        }
      }),
    close: () =>
      exclusive(async () => {
        db.close();
      }),
  };
}
