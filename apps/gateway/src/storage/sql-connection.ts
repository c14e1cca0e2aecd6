import type { Dialect } from "./migrations.ts";

export type SqlValue = string | number | bigint | null;
export type SqlRow = Record<string, unknown>;

// Booleans travel as 1/0: node:sqlite binds no booleans, and Postgres reads '1'/'0' as boolean.
export const sqlBool = (value: boolean): number => (value ? 1 : 0);
/** A numeric column as a number; NULL reads as 0. */
export const sqlNum = (value: unknown): number => Number(value ?? 0);

/**
 * What the store needs of a database: statements with `?` placeholders (the Postgres driver
 * numbers them), rows back, and transactions that run a function on one connection.
 */
export interface SqlConnection {
  readonly dialect: Dialect;
  all(sql: string, params?: readonly SqlValue[]): Promise<SqlRow[]>;
  /** Rows changed by an INSERT/UPDATE/DELETE. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /** Runs `body` in one transaction, committed when it returns and rolled back when it throws. */
  transaction<T>(body: (tx: SqlConnection) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}
