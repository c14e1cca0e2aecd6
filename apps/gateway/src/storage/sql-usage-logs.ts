import { checkUsageRow } from "./check-usage-row.ts";
import {
  sqlBool as bool,
  sqlNum as num,
  type SqlConnection,
  type SqlRow,
  type SqlValue,
} from "./sql-connection.ts";
import type { UsageLogInput, UsageLogRow } from "./store.ts";

// Usage rows to and from SQL. They are written many at a time (a charge batch holds up to
// `billing.flush_max_rows` of them), so one INSERT carries a chunk of rows: one statement per
// chunk instead of one per row, the cost that dominates a batch.

const COLUMNS = [
  "request_id",
  "time",
  "user_id",
  "token_id",
  "token_name",
  "model",
  "channel",
  "endpoint",
  "prompt_tokens",
  "completion_tokens",
  "cached_tokens",
  "cache_write_tokens",
  "thinking_tokens",
  "credits",
  "cost",
  "latency_ms",
  "stream",
  "status",
  "error",
  "estimated",
  "uncapped_credits",
] as const;

/**
 * Rows per INSERT: 64 x 21 parameters stays far below both drivers' limits (SQLite 32,766,
 * Postgres 65,535), and SQLite keeps at most 64 statement shapes prepared.
 */
const CHUNK = 64;

const ROW_PLACEHOLDERS = `(${COLUMNS.map(() => "?").join(", ")})`;
const insertSql: string[] = [];

/** The INSERT of `n` rows, built once per `n`. */
function insertOf(n: number): string {
  let sql = insertSql[n];
  if (sql === undefined) {
    sql = `INSERT INTO usage_logs (${COLUMNS.join(", ")}) VALUES ${Array.from({ length: n }, () => ROW_PLACEHOLDERS).join(", ")}`;
    insertSql[n] = sql;
  }
  return sql;
}

/** Writes one row's parameters into `params` from `at` on (in COLUMNS order). */
function putParams(params: SqlValue[], at: number, log: UsageLogInput): void {
  params[at] = log.requestId;
  params[at + 1] = log.time;
  params[at + 2] = log.userId;
  params[at + 3] = log.tokenId;
  params[at + 4] = log.tokenName;
  params[at + 5] = log.model;
  params[at + 6] = log.channel ?? null;
  params[at + 7] = log.endpoint;
  params[at + 8] = log.promptTokens;
  params[at + 9] = log.completionTokens;
  params[at + 10] = log.cachedTokens;
  params[at + 11] = log.cacheWriteTokens;
  params[at + 12] = log.thinkingTokens;
  params[at + 13] = log.credits;
  params[at + 14] = log.cost;
  params[at + 15] = log.latencyMs;
  params[at + 16] = bool(log.stream);
  params[at + 17] = log.status;
  params[at + 18] = log.error ?? null;
  params[at + 19] = bool(log.estimated === true);
  params[at + 20] = log.uncappedCredits ?? null;
}

/**
 * Writes usage rows on `db` (a transaction's connection, usually), a chunk per statement. Each
 * row is checked first (the accounting already did, loudly; a task's end did not): a row the
 * database would refuse would fail its whole transaction.
 */
export async function insertLogs(db: SqlConnection, rows: readonly UsageLogInput[]): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    const end = Math.min(rows.length, start + CHUNK);
    const params = new Array<SqlValue>((end - start) * COLUMNS.length);
    for (let i = start; i < end; i++) {
      putParams(params, (i - start) * COLUMNS.length, checkUsageRow(rows[i] as UsageLogInput).row);
    }
    await db.run(insertOf(end - start), params);
  }
}

export const toLog = (row: SqlRow): UsageLogRow => ({
  id: num(row["id"]),
  requestId: String(row["request_id"]),
  time: num(row["time"]),
  userId: String(row["user_id"]),
  tokenId: num(row["token_id"]),
  tokenName: String(row["token_name"]),
  model: String(row["model"]),
  channel: row["channel"] == null ? undefined : String(row["channel"]),
  endpoint: String(row["endpoint"]),
  promptTokens: num(row["prompt_tokens"]),
  completionTokens: num(row["completion_tokens"]),
  cachedTokens: num(row["cached_tokens"]),
  cacheWriteTokens: num(row["cache_write_tokens"]),
  thinkingTokens: num(row["thinking_tokens"]),
  credits: num(row["credits"]),
  cost: num(row["cost"]),
  latencyMs: num(row["latency_ms"]),
  stream: Boolean(row["stream"]),
  status: num(row["status"]),
  error: row["error"] == null ? undefined : String(row["error"]),
  ...(row["estimated"] ? { estimated: true } : {}),
  ...(row["uncapped_credits"] == null ? {} : { uncappedCredits: num(row["uncapped_credits"]) }),
});
