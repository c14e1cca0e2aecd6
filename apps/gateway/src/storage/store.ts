import type { FileRecords } from "../files/file-store.ts";
import type { ResponseStore } from "./response-store.ts";
import type { TaskStore } from "./task-store.ts";
import type { WebhookStore } from "./webhook-store.ts";

// The repository layer of DESIGN.md §5: one interface, two drivers (SQLite via node:sqlite,
// PostgreSQL via pg), one schema and one list of versioned migrations. Amounts are integer
// credits everywhere; money in the unit of `billing.unit` is derived only for display.

/** A user account. `quota` is the total granted; what is left is `quota - used - reserved`. */
export interface UserRow {
  readonly id: string;
  readonly quota: number;
  readonly used: number;
  /**
   * Credits leased by gateway instances (the sum of the user's lease rows), from which they
   * take the holds of calls in flight. Through the gateway's store view, this instance's free
   * lease is not counted (see the README, "Accounts and billing").
   */
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
  /** Its own rate limits (API tokens: at most its maker's); absent: the config's or the default. */
  readonly rateLimit?: TokenRateLimit | undefined;
}

/** Requests and tokens per minute; an absent field is no limit of the token's own. */
export interface TokenRateLimit {
  readonly rpm?: number | undefined;
  readonly tpm?: number | undefined;
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
  /** Stored by `createToken` only (config tokens take theirs from the config). */
  readonly rateLimit?: TokenRateLimit | undefined;
}

/** Fields a token's owner may change. `remaining` sets quota so that quota - used - reserved = remaining. */
export interface TokenPatch {
  readonly name?: string;
  readonly remaining?: number;
  readonly unlimited?: boolean;
  readonly expiresAt?: number | null;
  readonly models?: readonly string[] | null;
  readonly status?: TokenStatus;
  /** null clears the token's own limits. */
  readonly rateLimit?: TokenRateLimit | null;
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
  /**
   * Set when the usage the upstream reported would have cost more than the call's hold (what
   * the request could cost at most): the call was charged the hold, and this is what the
   * reported usage claimed (see the README, "Accounts and billing").
   */
  readonly uncappedCredits?: number;
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
  /** Exactly this HTTP status. */
  readonly status?: number;
  /** Statuses below this (400: the successes). */
  readonly statusBelow?: number;
  /** Statuses at or above this (400: the failures). */
  readonly statusFrom?: number;
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

/** One (UTC day, model) group of usage rows. */
export interface LogDay {
  /** Unix ms of the UTC day's start. */
  readonly day: number;
  readonly model: string;
  readonly requests: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly credits: number;
}

export interface Page<T> {
  readonly items: T[];
  readonly total: number;
}

export type LeaseKind = "token" | "user";

/**
 * One lease row: credits of a token's or a user's balance set aside for one gateway instance,
 * which takes the holds of its calls from it in memory. A subject's `reserved` is always the sum
 * of its lease rows.
 */
export interface LeaseKey {
  /** The instance: random per process start (and renewed when its leases were reclaimed). */
  readonly owner: string;
  readonly kind: LeaseKind;
  /** The token's id (as text) or the user's id. */
  readonly subject: string;
}

export interface LeaseRow extends LeaseKey {
  readonly amount: number;
  /** Unix ms of the owner's last heartbeat (or of the lease's last growth). */
  readonly heartbeatAt: number;
}

/**
 * `takeLease`: the credits added to the lease; "short" when none of the sizes fitted (nothing
 * changed); "lost" when the lease row the caller expected is gone (reclaimed).
 */
export type LeaseGrant = number | "short" | "lost";

/** `returnLease`: the row shrank, shrank to nothing and was deleted, or was gone (reclaimed). */
export type LeaseReturn = "kept" | "deleted" | "lost";

/**
 * What one settled call changes on its token and user: `used` grows by its cost on both, and
 * each side's lease (if it held on one) gives up the consumed part of the hold, min(cost, hold).
 */
export interface Charge {
  readonly tokenId: number;
  readonly userId: string;
  /** The real cost: added to `used` on both sides (an unlimited side too). */
  readonly credits: number;
  /**
   * The owner of the lease the token's hold came from; undefined when it held nothing (an
   * unlimited token). A lease that is gone (reclaimed) gives nothing: charged without a hold.
   */
  readonly tokenOwner: string | undefined;
  readonly tokenConsumed: number;
  readonly userOwner: string | undefined;
  readonly userConsumed: number;
}

/**
 * Settled calls and usage rows written in one transaction. `id` makes it idempotent: a batch
 * whose id was applied before changes nothing.
 */
export interface ChargeBatch {
  readonly id: string;
  readonly charges: readonly Charge[];
  /** Every call's usage row: settled, refunded and refused calls alike. */
  readonly logs: readonly UsageLogInput[];
  /**
   * The batches this one was split from (a failed batch is split to isolate a bad row): when
   * one of them was applied after all (its commit's answer was lost), this one changes nothing.
   */
  readonly supersedes?: readonly string[];
  /** Calls isolated as unwritable, recorded in `billing_dead_letters` in the same transaction. */
  readonly deadLetters?: readonly DeadLetter[];
}

/** A call a charge batch could not write, kept with the reason instead of blocking the rest. */
export interface DeadLetter {
  readonly requestId: string;
  readonly reason: string;
  /** Whether its charge was applied (only its usage row was refused) or is still owed. */
  readonly applied: boolean;
  readonly charge: Charge | undefined;
  readonly log: UsageLogInput;
}

export interface DeadLetterRow extends DeadLetter {
  readonly id: number;
  readonly batchId: string;
  readonly createdAt: number;
}

export interface BatchOutcome {
  /** The batch had been applied already (a retry after a lost commit answer): nothing changed. */
  readonly alreadyApplied: boolean;
  /**
   * Leases that could not give the consumed part (their row was reclaimed): the charges drawing
   * on them were charged in full without a hold.
   */
  readonly lost: readonly LeaseKey[];
}

export interface Store {
  readonly driver: "sqlite" | "postgres";
  /** The `files` table: uploads and generated results served from `public_url`. */
  readonly files: FileRecords;
  /** Asynchronous generation tasks (issue 13): CAS transitions, holds as `task:<id>` leases. */
  readonly tasks: TaskStore;
  /** Webhook pushes still owed and each user's signing secret. */
  readonly webhooks: WebhookStore;
  /** Responses kept for `store: true` and their items (issue 25). */
  readonly responses: ResponseStore;
  /** Applies pending migrations in order, each in its own transaction; returns the versions applied. */
  migrate(): Promise<number[]>;
  /**
   * Versions known to this build but not applied to the database (a query, so it also proves
   * the database answers); readiness uses it. Optional: wrappers may leave it out.
   */
  pendingMigrations?(): Promise<number[]>;
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
   * Takes `credits` off a limited token's remaining (its quota shrinks by that much), in one
   * statement and only when it has that much left: how a limited key pays for the quota it
   * grants. A negative amount gives credits back. Undefined when refused (not enough left,
   * unlimited, or not the owner's).
   */
  drawTokenQuota(id: number, userId: string, credits: number): Promise<TokenRow | undefined>;

  /**
   * Grows (or, when `exists` is false, opens) a lease: the first of `sizes` that the subject can
   * cover (quota - used - reserved >= size) is added to its `reserved` and to the lease row, in
   * one transaction, and the row's heartbeat is set to `now`.
   */
  takeLease(
    key: LeaseKey,
    sizes: readonly number[],
    now: number,
    exists: boolean,
  ): Promise<LeaseGrant>;
  /**
   * Gives `amount` of a lease back to its subject (`reserved` and the row both shrink; a row
   * left at 0 is deleted). "lost" when the row is gone or smaller (reclaimed): nothing changed.
   */
  returnLease(key: LeaseKey, amount: number): Promise<LeaseReturn>;
  /** Refreshes the heartbeat of every lease of `owner`; the leases it still has. */
  heartbeatLeases(owner: string, now: number): Promise<LeaseKey[]>;
  /**
   * Deletes leases, giving their whole amount back to their subjects, in one transaction: those
   * whose heartbeat is older than `before` (instances that died), or every lease of `owner`.
   */
  reclaimLeases(which: { readonly before: number } | { readonly owner: string }): Promise<{
    leases: number;
    credits: number;
  }>;
  /** Every lease row (diagnostics and tests). */
  listLeases(): Promise<LeaseRow[]>;
  /**
   * Applies a batch: `used += credits` on each charge's token and user, `reserved` and the lease
   * row shrink by each consumed part, and the usage rows are written; all in one transaction,
   * once per batch id (`now` is when the id was applied).
   */
  writeCharges(batch: ChargeBatch, now: number): Promise<BatchOutcome>;
  /** Forgets the ids of batches applied before `before`: a retry comes seconds later, not days. */
  forgetBatches(before: number): Promise<number>;
  /** Calls isolated from failing charge batches, oldest first (diagnostics and tests). */
  listDeadLetters(): Promise<DeadLetterRow[]>;

  /** Newest first. */
  queryLogs(filter: LogFilter, page: { offset: number; limit: number }): Promise<Page<UsageLogRow>>;
  logStats(filter: LogFilter): Promise<LogStats>;
  /** The filtered rows summed per UTC day and model, oldest first (`/api/log/self/daily`). */
  logDaily?(filter: LogFilter): Promise<LogDay[]>;
}
