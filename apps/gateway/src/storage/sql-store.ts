import { MIGRATIONS, sqlFor } from "./migrations.ts";
import type { SqlConnection, SqlRow, SqlValue } from "./sql-connection.ts";
import type {
  LogFilter,
  LogStats,
  NewToken,
  Page,
  Reservation,
  ReserveResult,
  Settlement,
  SettleOutcome,
  Store,
  TokenPatch,
  TokenRow,
  UsageLogInput,
  UsageLogRow,
  UserRow,
} from "./store.ts";

// Booleans travel as 1/0: node:sqlite binds no booleans, and Postgres reads '1'/'0' as boolean.
const bool = (value: boolean): number => (value ? 1 : 0);
const num = (value: unknown): number => Number(value ?? 0);
const opt = (value: unknown): number | undefined =>
  value === null || value === undefined ? undefined : Number(value);

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
  expiresAt: opt(row["expires_at"]),
  models: row["models"] == null ? undefined : (JSON.parse(String(row["models"])) as string[]),
  status: row["status"] === "disabled" ? "disabled" : "active",
  source: row["source"] === "config" ? "config" : "api",
  createdAt: num(row["created_at"]),
});

const LOG_COLUMNS =
  "request_id, time, user_id, token_id, token_name, model, channel, endpoint, prompt_tokens, completion_tokens, cached_tokens, cache_write_tokens, thinking_tokens, credits, cost, latency_ms, stream, status, error, estimated";
const INSERT_LOG = `INSERT INTO usage_logs (${LOG_COLUMNS}) VALUES (${LOG_COLUMNS.split(",")
  .map(() => "?")
  .join(", ")})`;

const logParams = (log: UsageLogInput): SqlValue[] => [
  log.requestId,
  log.time,
  log.userId,
  log.tokenId,
  log.tokenName,
  log.model,
  log.channel ?? null,
  log.endpoint,
  log.promptTokens,
  log.completionTokens,
  log.cachedTokens,
  log.cacheWriteTokens,
  log.thinkingTokens,
  log.credits,
  log.cost,
  log.latencyMs,
  bool(log.stream),
  log.status,
  log.error ?? null,
  bool(log.estimated === true),
];

const toLog = (row: SqlRow): UsageLogRow => ({
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
});

function where(filter: LogFilter): { sql: string; params: SqlValue[] } {
  const clauses = ["user_id = ?"];
  const params: SqlValue[] = [filter.userId];
  if (filter.model !== undefined) {
    clauses.push("model = ?");
    params.push(filter.model);
  }
  if (filter.tokenName !== undefined) {
    clauses.push("token_name = ?");
    params.push(filter.tokenName);
  }
  if (filter.from !== undefined) {
    clauses.push("time >= ?");
    params.push(filter.from);
  }
  if (filter.to !== undefined) {
    clauses.push("time < ?");
    params.push(filter.to);
  }
  return { sql: clauses.join(" AND "), params };
}

// Lock order, everywhere: reservations, then tokens by id, then users by id. Settling a batch
// aggregates per token and per user first, so concurrent batches and reserves never deadlock.
// Every read of tokens skips tombstones (deleted tokens keep their row; see deleteToken).
const LIVE = "deleted_at IS NULL";

const byKey = <K extends string | number>(map: Map<K, number>) =>
  [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

/** The Store on any SqlConnection: the same statements for SQLite and Postgres. */
export class SqlStore implements Store {
  readonly driver: Store["driver"];
  readonly #db: SqlConnection;
  readonly #now: () => number;

  constructor(db: SqlConnection, now: () => number = Date.now) {
    this.#db = db;
    this.driver = db.dialect;
    this.#now = now;
  }

  async migrate(): Promise<number[]> {
    const db = this.#db;
    await db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
    );
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
      `INSERT INTO tokens (key_hash, key_hint, name, user_id, quota, unlimited, expires_at, models, status, source, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      this.#tokenParams(token),
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

  async deleteToken(id: number, userId: string): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE tokens SET deleted_at = ?, status = 'disabled' WHERE id = ? AND user_id = ? AND ${LIVE}`,
      [this.#now(), id, userId],
    );
    return changed > 0;
  }

  reserve(r: Reservation): Promise<ReserveResult> {
    return this.#db
      .transaction(async (tx): Promise<ReserveResult> => {
        // The reservation row first: a second reserve of the same id, even a concurrent one on
        // Postgres (it waits on the key until the first commits), inserts nothing and says so.
        const inserted = await tx.all(
          `INSERT INTO reservations (id, token_id, user_id, amount, hold_token, hold_user, status, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'reserved', ?)
           ON CONFLICT (id) DO NOTHING
           RETURNING id`,
          [r.id, r.tokenId, r.userId, r.amount, bool(r.holdToken), bool(r.holdUser), this.#now()],
        );
        if (inserted.length === 0) return "duplicate";
        const hold = (table: "tokens" | "users", id: SqlValue) =>
          tx.run(
            `UPDATE ${table} SET reserved = reserved + ? WHERE id = ? AND quota - used - reserved >= ?`,
            [r.amount, id, r.amount],
          );
        if (r.holdToken && (await hold("tokens", r.tokenId)) === 0) throw SHORT.token;
        if (r.holdUser && (await hold("users", r.userId)) === 0) throw SHORT.user;
        return "ok";
      })
      .catch((error: unknown) => {
        // Thrown to roll the token's hold back when the user cannot cover the amount.
        if (error === SHORT.token) return "token";
        if (error === SHORT.user) return "user";
        throw error;
      });
  }

  async settle(settlements: readonly Settlement[]): Promise<SettleOutcome[]> {
    if (settlements.length === 0) return [];
    return this.#db.transaction(async (tx) => {
      const tokens = new Map<number, number>();
      const users = new Map<string, number>();
      const tokenReleases = new Map<number, number>();
      const userReleases = new Map<string, number>();
      const add = <K>(map: Map<K, number>, key: K, value: number) =>
        map.set(key, (map.get(key) ?? 0) + value);
      const results: SettleOutcome[] = [];
      const close = (s: Settlement, from: "reserved" | "released") =>
        tx.all(
          `UPDATE reservations SET status = 'settled', charged = ?, settled_at = ?
           WHERE id = ? AND status = '${from}'
           RETURNING token_id, user_id, amount, hold_token, hold_user`,
          [s.amount, this.#now(), s.id],
        );
      for (const s of settlements) {
        const held = (await close(s, "reserved"))[0];
        // A hold released as stale: its call was slow, not dead. Charge it without a hold.
        const released = held === undefined ? (await close(s, "released"))[0] : undefined;
        const row = held ?? released;
        if (row === undefined) {
          results.push("skipped");
          continue;
        }
        const tokenId = num(row["token_id"]);
        const userId = String(row["user_id"]);
        add(tokens, tokenId, s.amount);
        add(users, userId, s.amount);
        if (held?.["hold_token"]) add(tokenReleases, tokenId, num(held["amount"]));
        if (held?.["hold_user"]) add(userReleases, userId, num(held["amount"]));
        await tx.run(INSERT_LOG, logParams(s.log));
        results.push(held === undefined ? "unheld" : "settled");
      }
      for (const [id, used] of byKey(tokens)) {
        await tx.run("UPDATE tokens SET used = used + ?, reserved = reserved - ? WHERE id = ?", [
          used,
          tokenReleases.get(id) ?? 0,
          id,
        ]);
      }
      for (const [id, used] of byKey(users)) {
        await tx.run("UPDATE users SET used = used + ?, reserved = reserved - ? WHERE id = ?", [
          used,
          userReleases.get(id) ?? 0,
          id,
        ]);
      }
      return results;
    });
  }

  refund(id: string, log?: UsageLogInput): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const held = await this.#close(tx, id, "reserved", "refunded");
      if (held !== undefined) await giveBack(tx, held);
      // Released as stale already: nothing to give back, but the call's row is still written.
      else if ((await this.#close(tx, id, "released", "refunded")) === undefined) return false;
      if (log !== undefined) await tx.run(INSERT_LOG, logParams(log));
      return true;
    });
  }

  async refundStale(before: number): Promise<number> {
    const open = await this.#db.all(
      "SELECT id FROM reservations WHERE status = 'reserved' AND created_at < ?",
      [before],
    );
    let released = 0;
    for (const row of open) {
      const id = String(row["id"]);
      // Marked `released`, not `refunded`: its call may still settle, then without a hold.
      const done = await this.#db.transaction(async (tx) => {
        const held = await this.#close(tx, id, "reserved", "released");
        if (held !== undefined) await giveBack(tx, held);
        return held !== undefined;
      });
      if (done) released++;
    }
    return released;
  }

  /** Moves a reservation from one status to another (charging nothing); its row, if it moved. */
  async #close(
    tx: SqlConnection,
    id: string,
    from: "reserved" | "released",
    to: "refunded" | "released",
  ): Promise<SqlRow | undefined> {
    const rows = await tx.all(
      `UPDATE reservations SET status = '${to}', charged = 0, settled_at = ?
       WHERE id = ? AND status = '${from}'
       RETURNING token_id, user_id, amount, hold_token, hold_user`,
      [this.#now(), id],
    );
    return rows[0];
  }

  async appendLogs(rows: readonly UsageLogInput[]): Promise<void> {
    if (rows.length === 0) return;
    await this.#db.transaction(async (tx) => {
      for (const row of rows) await tx.run(INSERT_LOG, logParams(row));
    });
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
}

const SHORT = { token: new Error("token short"), user: new Error("user short") };

/** Returns a reservation's hold to the sides it was held on. */
async function giveBack(tx: SqlConnection, held: SqlRow): Promise<void> {
  const amount = num(held["amount"]);
  if (held["hold_token"]) {
    await tx.run("UPDATE tokens SET reserved = reserved - ? WHERE id = ?", [
      amount,
      num(held["token_id"]),
    ]);
  }
  if (held["hold_user"]) {
    await tx.run("UPDATE users SET reserved = reserved - ? WHERE id = ?", [
      amount,
      String(held["user_id"]),
    ]);
  }
}
