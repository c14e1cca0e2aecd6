import { MIGRATIONS, sqlFor } from "./migrations.ts";
import { listDeadLetters, writeCharges } from "./sql-charges.ts";
import {
  sqlBool as bool,
  sqlNum as num,
  type SqlConnection,
  type SqlRow,
  type SqlValue,
} from "./sql-connection.ts";
import { SqlFileRecords } from "./sql-files.ts";
import {
  heartbeatLeases,
  listLeases,
  reclaimLeases,
  returnLease,
  takeLease,
} from "./sql-leases.ts";
import { optNum } from "./sql-optional.ts";
import { SqlResponseStore } from "./sql-responses.ts";
import { SqlTaskStore } from "./sql-tasks.ts";
import { toLog } from "./sql-usage-logs.ts";
import { SqlWebhookStore } from "./sql-webhooks.ts";
import type {
  BatchOutcome,
  ChargeBatch,
  LeaseGrant,
  LeaseKey,
  LeaseReturn,
  LeaseRow,
  LogDay,
  LogFilter,
  LogStats,
  NewToken,
  Page,
  Store,
  TokenPatch,
  TokenRow,
  UsageLogRow,
  UserRow,
} from "./store.ts";

const toUser = (row: SqlRow): UserRow => ({
  id: String(row["id"]),
  quota: num(row["quota"]),
  used: num(row["used"]),
  reserved: num(row["reserved"]),
  unlimited: Boolean(row["unlimited"]),
  createdAt: num(row["created_at"]),
});

const toToken = (row: SqlRow): TokenRow => ({
  id: num(row["id"]),
  keyHash: String(row["key_hash"]),
  keyHint: String(row["key_hint"]),
  name: String(row["name"]),
  userId: String(row["user_id"]),
  quota: num(row["quota"]),
  used: num(row["used"]),
  reserved: num(row["reserved"]),
  unlimited: Boolean(row["unlimited"]),
  expiresAt: optNum(row["expires_at"]),
  models: row["models"] == null ? undefined : (JSON.parse(String(row["models"])) as string[]),
  status: row["status"] === "disabled" ? "disabled" : "active",
  source: row["source"] === "config" ? "config" : "api",
  createdAt: num(row["created_at"]),
  ...(row["rate_rpm"] == null && row["rate_tpm"] == null
    ? {}
    : { rateLimit: { rpm: optNum(row["rate_rpm"]), tpm: optNum(row["rate_tpm"]) } }),
});

/** Each optional filter and its condition. */
const LOG_FILTERS: readonly (readonly [Exclude<keyof LogFilter, "userId">, string])[] = [
  ["model", "model = ?"],
  ["tokenName", "token_name = ?"],
  ["from", "time >= ?"],
  ["to", "time < ?"],
  ["status", "status = ?"],
  ["statusBelow", "status < ?"],
  ["statusFrom", "status >= ?"],
];

function where(filter: LogFilter): { sql: string; params: SqlValue[] } {
  const clauses = ["user_id = ?"];
  const params: SqlValue[] = [filter.userId];
  for (const [field, condition] of LOG_FILTERS) {
    const value = filter[field];
    if (value === undefined) continue;
    clauses.push(condition);
    params.push(value);
  }
  return { sql: clauses.join(" AND "), params };
}

// Every read of tokens skips tombstones (deleted tokens keep their row; see deleteToken).
const LIVE = "deleted_at IS NULL";

const SCHEMA_MIGRATIONS_TABLE =
  "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)";

/** The Store on any SqlConnection: the same statements for SQLite and Postgres. */
export class SqlStore implements Store {
  readonly driver: Store["driver"];
  readonly files: SqlFileRecords;
  readonly tasks: SqlTaskStore;
  readonly webhooks: SqlWebhookStore;
  readonly responses: SqlResponseStore;
  readonly #db: SqlConnection;
  readonly #now: () => number;

  constructor(db: SqlConnection, now: () => number = Date.now) {
    this.#db = db;
    this.driver = db.dialect;
    this.#now = now;
    this.files = new SqlFileRecords(db);
    this.tasks = new SqlTaskStore(db);
    this.webhooks = new SqlWebhookStore(db, now);
    this.responses = new SqlResponseStore(db);
  }

  async migrate(): Promise<number[]> {
    const db = this.#db;
    await db.exec(SCHEMA_MIGRATIONS_TABLE);
    const applied: number[] = [];
    for (const migration of MIGRATIONS) {
      const ran = await db.transaction(async (tx) => {
        // Two instances starting at once: the second waits here, then finds the version applied.
        if (tx.dialect === "postgres") await tx.all("SELECT pg_advisory_xact_lock(74201)");
        const done = await tx.all("SELECT version FROM schema_migrations WHERE version = ?", [
          migration.version,
        ]);
        if (done.length > 0) return false;
        await tx.exec(sqlFor(migration, tx.dialect));
        await tx.run("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)", [
          migration.version,
          migration.name,
          this.#now(),
        ]);
        return true;
      });
      if (ran) applied.push(migration.version);
    }
    return applied;
  }

  async pendingMigrations(): Promise<number[]> {
    // A database never migrated has no such table yet: every migration is pending.
    await this.#db.exec(SCHEMA_MIGRATIONS_TABLE);
    const rows = await this.#db.all("SELECT version FROM schema_migrations");
    const applied = new Set(rows.map((row) => Number(row["version"])));
    return MIGRATIONS.map((m) => m.version).filter((version) => !applied.has(version));
  }

  close(): Promise<void> {
    return this.#db.close();
  }

  async upsertUser(user: { id: string; quota: number; unlimited: boolean }): Promise<UserRow> {
    const rows = await this.#db.all(
      `INSERT INTO users (id, quota, unlimited, created_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET quota = excluded.quota, unlimited = excluded.unlimited
       RETURNING *`,
      [user.id, user.quota, bool(user.unlimited), this.#now()],
    );
    return toUser(rows[0] as SqlRow);
  }

  async getUser(id: string): Promise<UserRow | undefined> {
    const rows = await this.#db.all("SELECT * FROM users WHERE id = ?", [id]);
    return rows[0] === undefined ? undefined : toUser(rows[0]);
  }

  #tokenParams(token: NewToken): SqlValue[] {
    return [
      token.keyHash,
      token.keyHint,
      token.name,
      token.userId,
      token.quota,
      bool(token.unlimited),
      token.expiresAt ?? null,
      token.models === undefined ? null : JSON.stringify(token.models),
      token.status ?? "active",
      token.source,
      this.#now(),
    ];
  }

  async upsertToken(token: NewToken): Promise<TokenRow | undefined> {
    const rows = await this.#db.all(
      `INSERT INTO tokens (key_hash, key_hint, name, user_id, quota, unlimited, expires_at, models, status, source, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (key_hash) DO UPDATE SET name = excluded.name, user_id = excluded.user_id,
         quota = excluded.quota, unlimited = excluded.unlimited, expires_at = excluded.expires_at,
         models = excluded.models, source = excluded.source
       WHERE tokens.${LIVE}
       RETURNING *`,
      this.#tokenParams(token),
    );
    return rows[0] === undefined ? undefined : toToken(rows[0]);
  }

  async createToken(token: NewToken): Promise<TokenRow> {
    const rows = await this.#db.all(
      `INSERT INTO tokens (key_hash, key_hint, name, user_id, quota, unlimited, expires_at, models, status, source, created_at, rate_rpm, rate_tpm)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      [...this.#tokenParams(token), token.rateLimit?.rpm ?? null, token.rateLimit?.tpm ?? null],
    );
    return toToken(rows[0] as SqlRow);
  }

  async findTokenByHash(keyHash: string): Promise<TokenRow | undefined> {
    const rows = await this.#db.all(`SELECT * FROM tokens WHERE key_hash = ? AND ${LIVE}`, [
      keyHash,
    ]);
    return rows[0] === undefined ? undefined : toToken(rows[0]);
  }

  async getToken(id: number): Promise<TokenRow | undefined> {
    const rows = await this.#db.all(`SELECT * FROM tokens WHERE id = ? AND ${LIVE}`, [id]);
    return rows[0] === undefined ? undefined : toToken(rows[0]);
  }

  async listTokens(
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<Page<TokenRow>> {
    const rows = await this.#db.all(
      `SELECT * FROM tokens WHERE user_id = ? AND ${LIVE} ORDER BY id DESC LIMIT ? OFFSET ?`,
      [userId, page.limit, page.offset],
    );
    const count = await this.#db.all(
      `SELECT COUNT(*) AS n FROM tokens WHERE user_id = ? AND ${LIVE}`,
      [userId],
    );
    return { items: rows.map(toToken), total: num(count[0]?.["n"]) };
  }

  async updateToken(id: number, userId: string, patch: TokenPatch): Promise<TokenRow | undefined> {
    const sets: string[] = [];
    const params: SqlValue[] = [];
    const set = (sql: string, value: SqlValue) => {
      sets.push(sql);
      params.push(value);
    };
    if (patch.name !== undefined) set("name = ?", patch.name);
    if (patch.remaining !== undefined) set("quota = used + reserved + ?", patch.remaining);
    if (patch.unlimited !== undefined) set("unlimited = ?", bool(patch.unlimited));
    if (patch.expiresAt !== undefined) set("expires_at = ?", patch.expiresAt);
    if (patch.models !== undefined) {
      set("models = ?", patch.models === null ? null : JSON.stringify(patch.models));
    }
    if (patch.status !== undefined) set("status = ?", patch.status);
    if (patch.rateLimit !== undefined) {
      set("rate_rpm = ?", patch.rateLimit?.rpm ?? null);
      set("rate_tpm = ?", patch.rateLimit?.tpm ?? null);
    }
    if (sets.length === 0) {
      const row = await this.getToken(id);
      return row?.userId === userId ? row : undefined;
    }
    const rows = await this.#db.all(
      `UPDATE tokens SET ${sets.join(", ")} WHERE id = ? AND user_id = ? AND ${LIVE} RETURNING *`,
      [...params, id, userId],
    );
    return rows[0] === undefined ? undefined : toToken(rows[0]);
  }

  async drawTokenQuota(id: number, userId: string, credits: number): Promise<TokenRow | undefined> {
    const rows = await this.#db.all(
      `UPDATE tokens SET quota = quota - ?
       WHERE id = ? AND user_id = ? AND ${LIVE} AND NOT unlimited
         AND (CAST(? AS BIGINT) <= 0 OR quota - used - reserved >= ?) RETURNING *`,
      [credits, id, userId, credits, credits],
    );
    return rows[0] === undefined ? undefined : toToken(rows[0]);
  }

  async deleteToken(id: number, userId: string): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE tokens SET deleted_at = ?, status = 'disabled' WHERE id = ? AND user_id = ? AND ${LIVE}`,
      [this.#now(), id, userId],
    );
    return changed > 0;
  }

  takeLease(
    key: LeaseKey,
    sizes: readonly number[],
    now: number,
    exists: boolean,
  ): Promise<LeaseGrant> {
    return takeLease(this.#db, key, sizes, now, exists);
  }

  returnLease(key: LeaseKey, amount: number): Promise<LeaseReturn> {
    return returnLease(this.#db, key, amount);
  }

  heartbeatLeases(owner: string, now: number): Promise<LeaseKey[]> {
    return heartbeatLeases(this.#db, owner, now);
  }

  reclaimLeases(
    which: { readonly before: number } | { readonly owner: string },
  ): Promise<{ leases: number; credits: number }> {
    return reclaimLeases(this.#db, which);
  }

  listLeases(): Promise<LeaseRow[]> {
    return listLeases(this.#db);
  }

  writeCharges(batch: ChargeBatch, now: number): Promise<BatchOutcome> {
    return writeCharges(this.#db, batch, now);
  }

  forgetBatches(before: number): Promise<number> {
    return this.#db.run("DELETE FROM applied_batches WHERE applied_at < ?", [before]);
  }

  listDeadLetters(): ReturnType<Store["listDeadLetters"]> {
    return listDeadLetters(this.#db);
  }

  async queryLogs(
    filter: LogFilter,
    page: { offset: number; limit: number },
  ): Promise<Page<UsageLogRow>> {
    const { sql, params } = where(filter);
    const rows = await this.#db.all(
      `SELECT * FROM usage_logs WHERE ${sql} ORDER BY time DESC, id DESC LIMIT ? OFFSET ?`,
      [...params, page.limit, page.offset],
    );
    const count = await this.#db.all(`SELECT COUNT(*) AS n FROM usage_logs WHERE ${sql}`, params);
    return { items: rows.map(toLog), total: num(count[0]?.["n"]) };
  }

  async logStats(filter: LogFilter): Promise<LogStats> {
    const { sql, params } = where(filter);
    const rows = await this.#db.all(
      `SELECT COUNT(*) AS requests, COALESCE(SUM(prompt_tokens), 0) AS prompt,
         COALESCE(SUM(completion_tokens), 0) AS completion, COALESCE(SUM(cached_tokens), 0) AS cached,
         COALESCE(SUM(cache_write_tokens), 0) AS cache_write,
         COALESCE(SUM(thinking_tokens), 0) AS thinking, COALESCE(SUM(credits), 0) AS credits
       FROM usage_logs WHERE ${sql}`,
      params,
    );
    const row = rows[0] ?? {};
    return {
      requests: num(row["requests"]),
      promptTokens: num(row["prompt"]),
      completionTokens: num(row["completion"]),
      cachedTokens: num(row["cached"]),
      cacheWriteTokens: num(row["cache_write"]),
      thinkingTokens: num(row["thinking"]),
      credits: num(row["credits"]),
    };
  }

  async logDaily(filter: LogFilter): Promise<LogDay[]> {
    const { sql, params } = where(filter);
    const rows = await this.#db.all(
      `SELECT (time / 86400000) AS day, model, COUNT(*) AS requests,
         COALESCE(SUM(prompt_tokens), 0) AS prompt, COALESCE(SUM(completion_tokens), 0) AS completion,
         COALESCE(SUM(credits), 0) AS credits
       FROM usage_logs WHERE ${sql}
       GROUP BY (time / 86400000), model ORDER BY day, model`,
      params,
    );
    return rows.map((row) => ({
      day: num(row["day"]) * 86_400_000,
      model: String(row["model"]),
      requests: num(row["requests"]),
      promptTokens: num(row["prompt"]),
      completionTokens: num(row["completion"]),
      credits: num(row["credits"]),
    }));
  }
}
