// The repository layer of DESIGN.md §5: one interface, two drivers (SQLite via node:sqlite,
// PostgreSQL via pg), one schema and one list of versioned migrations. Amounts are integer
// credits everywhere; money in the unit of `billing.unit` is derived only for display.

/** A user account. `quota` is the total granted; what is left is `quota - used - reserved`. */
export interface UserRow {
  readonly id: string;
  readonly quota: number;
  readonly used: number;
  /** Credits held by calls in flight (reserved, not yet settled or refunded). */
  readonly reserved: number;
  readonly unlimited: boolean;
  readonly createdAt: number;
}

export type TokenStatus = "active" | "disabled";

/** An API token. The key itself is never stored: only its SHA-256 (hex) and a display hint. */
export interface TokenRow {
  readonly id: number;
  readonly keyHash: string;
  /** e.g. `sk-ab…wxyz`: enough for a person to recognise the key, useless to an attacker. */
  readonly keyHint: string;
  readonly name: string;
  readonly userId: string;
  /** Total granted to this token; ignored when `unlimited`. */
  readonly quota: number;
  readonly used: number;
  readonly reserved: number;
  readonly unlimited: boolean;
  /** Unix milliseconds; undefined = never expires. */
  readonly expiresAt: number | undefined;
  /** Gateway model ids this token may use; undefined = all. */
  readonly models: readonly string[] | undefined;
  readonly status: TokenStatus;
  /** Where the token came from: the config file (upserted at start) or the API/CLI. */
  readonly source: "config" | "api";
  readonly createdAt: number;
}

export interface NewToken {
  readonly keyHash: string;
  readonly keyHint: string;
  readonly name: string;
  readonly userId: string;
  readonly quota: number;
  readonly unlimited: boolean;
  readonly expiresAt?: number | undefined;
  readonly models?: readonly string[] | undefined;
  readonly status?: TokenStatus;
  readonly source: "config" | "api";
}

/** Fields a token's owner may change. `remaining` sets quota so that quota - used - reserved = remaining. */
export interface TokenPatch {
  readonly name?: string;
  readonly remaining?: number;
  readonly unlimited?: boolean;
  readonly expiresAt?: number | null;
  readonly models?: readonly string[] | null;
  readonly status?: TokenStatus;
}

/** One row per call (DESIGN.md: time, user, token name, model, channel, endpoint, tokens, cost...). */
export interface UsageLogInput {
  readonly requestId: string;
  /** Unix milliseconds. */
  readonly time: number;
  readonly userId: string;
  readonly tokenId: number;
  /** The token's name, never its key. */
  readonly tokenName: string;
  readonly model: string;
  readonly channel: string | undefined;
  readonly endpoint: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedTokens: number;
  readonly cacheWriteTokens: number;
  readonly thinkingTokens: number;
  /** Integer credits charged. */
  readonly credits: number;
  /** The same charge in the billing unit (credits / credits_per_usd for USD), for display. */
  readonly cost: number;
  readonly latencyMs: number;
  readonly stream: boolean;
  /** HTTP status the client got (for a stream: 200, or the status of its in-stream error). */
  readonly status: number;
  readonly error?: string | undefined;
  /**
   * The upstream delivered but did not report (all of) its usage, so the token counts and the
   * charge are the gateway's estimate (see the README, "Accounts and billing").
   */
  readonly estimated?: boolean;
}

export interface UsageLogRow extends UsageLogInput {
  readonly id: number;
}

export interface LogFilter {
  readonly userId: string;
  readonly model?: string;
  readonly tokenName?: string;
  /** Inclusive lower bound, unix ms. */
  readonly from?: number;
  /** Exclusive upper bound, unix ms. */
  readonly to?: number;
}

export interface LogStats {
  readonly requests: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedTokens: number;
  readonly cacheWriteTokens: number;
  readonly thinkingTokens: number;
  readonly credits: number;
}

export interface Page<T> {
  readonly items: T[];
  readonly total: number;
}

export interface Reservation {
  /** The request id; a second reserve with the same id is refused with "duplicate". */
  readonly id: string;
  readonly tokenId: number;
  readonly userId: string;
  readonly amount: number;
  /** false for unlimited tokens: the token's balance is not checked or held (its `used` still grows on settle). */
  readonly holdToken: boolean;
  /** false for unlimited users. */
  readonly holdUser: boolean;
}

/** "token" / "user": that side could not cover the amount; nothing was held. */
export type ReserveResult = "ok" | "token" | "user" | "duplicate";

/**
 * What one settlement did: `settled` released its hold and charged; `unheld` found its hold
 * already released as stale (`refundStale`) and charged the real amount directly, without a
 * hold; `skipped` found it settled or refunded already (or never made), and did nothing.
 */
export type SettleOutcome = "settled" | "unheld" | "skipped";

export interface Settlement {
  /** The reservation's id. */
  readonly id: string;
  /** The real charge in credits (may exceed the reservation: the balance then goes below zero by the difference). */
  readonly amount: number;
  /** Written in the same transaction as the settlement. */
  readonly log: UsageLogInput;
}

export interface Store {
  readonly driver: "sqlite" | "postgres";
  /** Applies pending migrations in order, each in its own transaction; returns the versions applied. */
  migrate(): Promise<number[]>;
  close(): Promise<void>;

  /** Creates the user, or sets `quota` (total granted) and `unlimited` of an existing one, keeping `used`. */
  upsertUser(user: { id: string; quota: number; unlimited: boolean }): Promise<UserRow>;
  getUser(id: string): Promise<UserRow | undefined>;

  /**
   * Config tokens: keyed by keyHash. Creates, or updates name/user/quota/unlimited/models/
   * expiry of an existing row, keeping `used` (a restart never re-grants spent quota). A token
   * deleted through the API stays deleted: undefined, nothing changed.
   */
  upsertToken(token: NewToken): Promise<TokenRow | undefined>;
  createToken(token: NewToken): Promise<TokenRow>;
  findTokenByHash(keyHash: string): Promise<TokenRow | undefined>;
  getToken(id: number): Promise<TokenRow | undefined>;
  /** Newest first. */
  listTokens(userId: string, page: { offset: number; limit: number }): Promise<Page<TokenRow>>;
  /** Only a token owned by `userId`; undefined when there is none. */
  updateToken(id: number, userId: string, patch: TokenPatch): Promise<TokenRow | undefined>;
  /**
   * Deletes the owner's token: from then on no read finds it, but its row stays as a tombstone
   * (keeping its key hash and what it spent), so `upsertToken` never brings it back.
   */
  deleteToken(id: number, userId: string): Promise<boolean>;

  /**
   * Atomically holds `amount` on the token and on its user (each only when its hold flag is
   * set), or on neither. A side can cover the amount when quota - used - reserved >= amount.
   */
  reserve(reservation: Reservation): Promise<ReserveResult>;
  /**
   * Settles each reservation once: releases its hold, adds the real amount to `used` on both
   * token and user, writes its log row. A reservation whose hold `refundStale` released is
   * still charged (directly) and logged: money is never dropped. A reservation already settled
   * or refunded is skipped (its log row is not written again). Returns what each item did.
   */
  settle(settlements: readonly Settlement[]): Promise<SettleOutcome[]>;
  /**
   * Releases the hold without charging; writes the log row if given (also when `refundStale`
   * released the hold already). Idempotent like settle.
   */
  refund(id: string, log?: UsageLogInput): Promise<boolean>;
  /**
   * Releases the hold of every reservation still open that was made before `before` (unix ms):
   * holds left by a process that died mid-call. Such a reservation may still settle later (its
   * call was only slow): it is then charged without a hold. Returns how many were released.
   */
  refundStale(before: number): Promise<number>;
  /** Log rows of calls that held nothing (refused with 402, failed before reserving). */
  appendLogs(rows: readonly UsageLogInput[]): Promise<void>;

  /** Newest first. */
  queryLogs(filter: LogFilter, page: { offset: number; limit: number }): Promise<Page<UsageLogRow>>;
  logStats(filter: LogFilter): Promise<LogStats>;
}
