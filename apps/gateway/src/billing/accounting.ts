import { randomBytes } from "node:crypto";
import type { BillingConfig } from "../config/config-schema.ts";
import type { Logger } from "../log/logger.ts";
import { checkUsageRow, isCount } from "../storage/check-usage-row.ts";
import type { LeaseKind, Store, UsageLogInput } from "../storage/store.ts";
import {
  ChargeBatcher,
  type PendingCall,
  type SpilledBatch,
  storedCharge,
} from "./charge-batcher.ts";
import { LeaseBook } from "./lease-book.ts";
import { toBillingUnit } from "./money.ts";
import type { QuotaLease } from "./quota-lease.ts";
import { appendSpill, readSpills, replaceSpills, type SpillPlace } from "./spill-journal.ts";

const FLUSH_ROUNDS = 8;

/** The hold of one call, taken from this instance's leases; settle or refund it exactly once (later calls are no-ops). */
export interface Hold {
  readonly id: string;
  readonly amount: number;
  /**
   * Charge `credits` (the real cost) and write the call's log row. Never more than the hold:
   * a cost above it (usage an upstream reported beyond what the request could use) is charged
   * the hold, and the row says what was claimed (`uncappedCredits`).
   */
  settle(credits: number, log: UsageLogInput): void;
  /** Release the hold without charging, writing the call's log row. */
  refund(log: UsageLogInput): void;
}

export type ReserveOutcome =
  | { readonly ok: true; readonly hold: Hold }
  | { readonly ok: false; readonly short: "token" | "user" };

export interface ReserveInput {
  readonly requestId: string;
  readonly tokenId: number;
  readonly userId: string;
  readonly amount: number;
  readonly tokenUnlimited: boolean;
  readonly userUnlimited: boolean;
}

/** Lease timing; the defaults suit production, tests shorten them or drive `maintain()`. */
export interface AccountingOptions {
  /** The clock of leases: idle time, heartbeats and their age (tests move it). */
  readonly now?: () => number;
  /** false: no background maintenance; the caller runs `maintain()` (tests). Default true. */
  readonly timers?: boolean;
  /** Free lease unused this long goes back to the database. */
  readonly idleMs?: number;
  /** How often this instance refreshes the heartbeat of its lease rows. */
  readonly heartbeatMs?: number;
  /** Leases whose heartbeat is older than this belong to a dead instance and are reclaimed. */
  readonly staleMs?: number;
  /** How often this instance looks for such leases. */
  readonly reclaimEveryMs?: number;
  /** This instance's id in the lease rows (default: random). */
  readonly owner?: string;
  /**
   * Where settlements shutdown could not write are journaled, and where `start` looks for a
   * previous run's (see spill-journal.ts); undefined: none (an in-memory database).
   */
  readonly spill?: SpillPlace | undefined;
  /**
   * At shutdown, how long calls in flight may take to settle before the rest is written
   * (default 5 s; 0 without timers, where the caller drives everything).
   */
  readonly closeWaitMs?: number;
  /** At shutdown, how long writing what is queued may take before it is journaled instead. */
  readonly closeWriteMs?: number;
}

interface LeaseTiming {
  readonly idleMs: number;
  readonly heartbeatMs: number;
  readonly staleMs: number;
  readonly reclaimEveryMs: number;
}

export const LEASE_DEFAULTS: LeaseTiming = {
  idleMs: 2_000,
  heartbeatMs: 10_000,
  staleMs: 60_000,
  reclaimEveryMs: 30_000,
};

/** Applied charge-batch ids are kept this long: a retry comes within seconds. */
const BATCH_ID_MEMORY_MS = 24 * 60 * 60_000;

const SHORT_TOKEN: ReserveOutcome = { ok: false, short: "token" };
const SHORT_USER: ReserveOutcome = { ok: false, short: "user" };

/**
 * Holds come from in-memory quota leases, so a call does I/O only when a lease must grow; charges
 * are written in batches (`ChargeBatcher`). A heartbeat keeps live leases from being reclaimed.
 */
export class Accounting {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #timing: LeaseTiming;
  readonly #useTimers: boolean;
  readonly #book: LeaseBook;
  readonly #batcher: ChargeBatcher;
  #turn: Promise<unknown> = Promise.resolve();
  #ticker: NodeJS.Timeout | undefined;
  #maintaining = false;
  #lastHeartbeat: number;
  #lastReclaim = Number.NEGATIVE_INFINITY;
  readonly #billing: BillingConfig;
  readonly #spill: SpillPlace | undefined;
  readonly #closeWaitMs: number;
  readonly #closeWriteMs: number;
  /** Holds neither settled nor refunded yet: shutdown waits (a while) for them. */
  #open = 0;
  #closed = false;
  /** Whether unwritten settlements are journaled now (a database outage). */
  #spooling = false;
  /** Names this process's journal file (its first owner id: the owner changes after a drop). */
  readonly #journalId: string;

  constructor(store: Store, billing: BillingConfig, log: Logger, options: AccountingOptions = {}) {
    this.#store = store;
    this.#log = log;
    this.#now = options.now ?? Date.now;
    this.#useTimers = options.timers ?? true;
    this.#timing = {
      idleMs: options.idleMs ?? LEASE_DEFAULTS.idleMs,
      heartbeatMs: options.heartbeatMs ?? LEASE_DEFAULTS.heartbeatMs,
      staleMs: options.staleMs ?? LEASE_DEFAULTS.staleMs,
      reclaimEveryMs: options.reclaimEveryMs ?? LEASE_DEFAULTS.reclaimEveryMs,
    };
    this.#lastHeartbeat = this.#now();
    this.#billing = billing;
    this.#spill = options.spill;
    this.#closeWaitMs = options.closeWaitMs ?? (this.#useTimers ? 5_000 : 0);
    this.#closeWriteMs = options.closeWriteMs ?? 5_000;
    const serial = <T>(task: () => Promise<T>) => this.#serial(task);
    this.#book = new LeaseBook({
      store,
      log,
      now: this.#now,
      ...(options.owner === undefined ? {} : { owner: options.owner }),
      // What is left of the old rows goes back now rather than when they look stale.
      onDropped: (old) => {
        void serial(() => store.reclaimLeases({ owner: old })).catch((error: unknown) =>
          log.error({ err: error }, "giving back the leases of a dropped owner id failed"),
        );
      },
    });
    this.#journalId = this.#book.owner;
    this.#batcher = new ChargeBatcher({
      store,
      log,
      now: this.#now,
      maxRows: billing.flush_max_rows,
      intervalMs: billing.flush_interval_ms,
      serial,
      onLostLease: (lease) => {
        if (!lease.dropped)
          this.#book.drop("a charge batch found a lease row of this instance gone");
      },
      onUnwritten: (batches) => this.#spoolUnwritten(batches),
    });
  }

  /** This instance's id in the lease rows. */
  get owner(): string {
    return this.#book.owner;
  }

  /**
   * Applies what a previous run journaled at shutdown, reclaims dead instances' leases, then
   * starts the background maintenance.
   */
  async start(): Promise<void> {
    await this.#replaySpills();
    await this.#serial(() => this.#step("reclaiming stale leases", () => this.#reclaimStale()));
    if (this.#useTimers && this.#ticker === undefined) {
      const every = Math.min(1_000, Math.max(50, this.#timing.idleMs / 2));
      this.#ticker = setInterval(() => void this.maintain(), every);
      this.#ticker.unref();
    }
  }

  /**
   * The hot path, synchronous: both holds come from leases with room. Undefined when a lease
   * must grow first (then `reserve`).
   */
  tryReserve(input: ReserveInput): ReserveOutcome | undefined {
    const amount = input.amount;
    const now = this.#now();
    const token = input.tokenUnlimited ? undefined : this.#book.token(input.tokenId);
    if (token !== undefined && !token.tryHold(amount, now)) return undefined;
    const user = input.userUnlimited ? undefined : this.#book.user(input.userId);
    if (user !== undefined && !user.tryHold(amount, now)) {
      if (token !== undefined) this.#book.unhold(token, amount);
      return undefined;
    }
    return { ok: true, hold: this.#hold(input, token, user) };
  }

  reserve(input: ReserveInput): Promise<ReserveOutcome> {
    const now = this.tryReserve(input);
    return now === undefined ? this.#reserveGrowing(input) : Promise.resolve(now);
  }

  // A lease lacks room: wait for it to grow (or learn that the subject cannot cover the call).
  async #reserveGrowing(input: ReserveInput): Promise<ReserveOutcome> {
    const token = input.tokenUnlimited
      ? undefined
      : await this.#book.acquire("token", String(input.tokenId), input.amount);
    if (!input.tokenUnlimited && token === undefined) return SHORT_TOKEN;
    const user = input.userUnlimited
      ? undefined
      : await this.#book.acquire("user", input.userId, input.amount);
    if (!input.userUnlimited && user === undefined) {
      if (token !== undefined) this.#book.unhold(token, input.amount);
      return SHORT_USER;
    }
    return { ok: true, hold: this.#hold(input, token, user) };
  }

  #hold(input: ReserveInput, token: QuotaLease | undefined, user: QuotaLease | undefined): Hold {
    this.#open++;
    return new LeaseHold(this.#book, input, token, user, {
      enqueue: (call) => this.#enqueue(call),
      ended: () => this.#open--,
      capped: (claimed, log) => this.#capped(input, claimed, log),
    });
  }

  /** A log row for a call that held nothing (refused before or when taking its hold). */
  logUnheld(row: UsageLogInput): void {
    this.#enqueue({ log: row });
  }

  /** Holds neither settled nor refunded yet. */
  get openHolds(): number {
    return this.#open;
  }

  // Every call goes through here: its row is checked (and repaired, loudly) before it is queued,
  // so no row can fail its batch; after shutdown it goes to the journal instead.
  #enqueue(call: PendingCall): void {
    const checked = checkUsageRow(call.log);
    if (checked.problems.length > 0) {
      this.#log.error(
        { requestId: checked.row.requestId, fields: checked.problems },
        "a usage row had fields the database cannot take: repaired before writing",
      );
    }
    const queued = checked.problems.length === 0 ? call : { ...call, log: checked.row };
    if (!this.#closed) {
      this.#batcher.add(queued);
      return;
    }
    this.#journalLate(queued);
  }

  // The row of a call charged its hold rather than the larger cost its reported usage implied.
  #capped(input: ReserveInput, claimed: number, log: UsageLogInput): UsageLogInput {
    this.#log.warn(
      {
        requestId: input.requestId,
        tokenId: input.tokenId,
        userId: input.userId,
        model: log.model,
        channel: log.channel,
        promptTokens: log.promptTokens,
        completionTokens: log.completionTokens,
        claimed,
        hold: input.amount,
      },
      "usage reported above what the request could cost: charged its hold",
    );
    return {
      ...log,
      credits: input.amount,
      cost: toBillingUnit(input.amount, this.#billing),
      uncappedCredits: claimed,
    };
  }

  // A database outage: what is not written yet is journaled at once (and the journal emptied
  // once it is written), so an instance dying meanwhile loses no settled call; the next start of
  // any instance on this data directory applies it, by batch id, so at most once.
  #spoolUnwritten(batches: SpilledBatch[]): void {
    if (this.#closed || this.#spill === undefined) return;
    try {
      replaceSpills(this.#spill, this.#journalId, [], batches);
    } catch (error) {
      this.#log.error({ err: error }, "journaling unwritten settlements failed");
      return;
    }
    const rows = batches.reduce((n, b) => n + b.calls.length, 0);
    if (rows > 0 && !this.#spooling) {
      this.#log.warn(
        { rows, dir: this.#spill.dir },
        "settlements cannot be written now: journaled, and written when the database is back",
      );
    }
    if (rows === 0 && this.#spooling) this.#log.info("journaled settlements written");
    this.#spooling = rows > 0;
  }

  // A call settled after shutdown: journaled for the next start (or, without a journal, logged).
  #journalLate(call: PendingCall): void {
    const spilled: SpilledBatch = {
      id: randomBytes(12).toString("base64url"),
      stage: "whole",
      calls: [
        call.charge === undefined
          ? { log: call.log }
          : { log: call.log, charge: storedCharge(call.charge) },
      ],
    };
    this.#writeJournal([spilled], "a call settled after shutdown", false);
  }

  // This process's journal holds `batches` (replace) or gets them added (a late settlement).
  #writeJournal(batches: SpilledBatch[], why: string, replace: boolean): void {
    const rows = batches.reduce((n, b) => n + b.calls.length, 0);
    if (this.#spill === undefined) {
      if (rows > 0) {
        this.#log.error(
          { rows, batches },
          `${why}: settlements lost (no journal for this database)`,
        );
      }
      return;
    }
    try {
      if (replace) replaceSpills(this.#spill, this.#journalId, [], batches);
      else appendSpill(this.#spill, this.#journalId, batches);
      if (rows > 0) {
        this.#log.warn(
          { rows, dir: this.#spill.dir },
          `${why}: settlements journaled for the next start`,
        );
      }
    } catch (error) {
      this.#log.error({ err: error, rows, batches }, `${why}: journaling settlements failed`);
    }
  }

  // A previous run's journal: its batches are written first (same ids: applied once however
  // often they are replayed); what still cannot be written moves to this process's journal and
  // is retried while it runs (shutdown rewrites that journal with what is left then).
  async #replaySpills(): Promise<void> {
    const place = this.#spill;
    if (place === undefined) return;
    const { files, batches } = readSpills(place);
    if (files.length === 0) return;
    this.#batcher.restore(batches);
    await this.writePending();
    const left = this.#batcher.takeAll();
    replaceSpills(place, this.#journalId, files, left);
    this.#batcher.restore(left);
    // The instance that journaled them is gone: what its lease rows still hold (its shutdown
    // could not give them back) goes back now rather than once they look stale.
    const owners = new Set<string>();
    for (const batch of batches) {
      for (const call of batch.calls) {
        if (call.charge?.tokenOwner !== undefined) owners.add(call.charge.tokenOwner);
        if (call.charge?.userOwner !== undefined) owners.add(call.charge.userOwner);
      }
    }
    owners.delete(this.#book.owner);
    for (const owner of owners) {
      await this.#step("giving back a journaled instance's leases", async () => {
        await this.#store.reclaimLeases({ owner });
      });
    }
    this.#log.warn(
      { files: files.length, batches: batches.length, left: left.length },
      "applied settlements journaled by a previous run",
    );
  }

  /**
   * Writes every settlement, refund and log row queued so far (a batch that keeps failing is
   * given up after a few rounds, loudly, so shutdown cannot hang), then gives every free lease
   * back, so the database shows what is really spent and held.
   */
  async flush(): Promise<void> {
    await this.writePending();
    await this.#serial(() => this.#book.giveBack({ all: true, idleMs: this.#timing.idleMs })).catch(
      (error: unknown) => this.#log.error({ err: error }, "giving back leases failed"),
    );
  }

  /** Writes what is queued (as `flush`), leaving the leases as they are. */
  async writePending(): Promise<void> {
    for (let round = 0; round < FLUSH_ROUNDS && this.#batcher.pending > 0; round++) {
      await this.#batcher.writeAll().catch(() => sleep(50));
    }
    if (this.#batcher.pending > 0) {
      this.#log.error({ rows: this.#batcher.pending }, "settlements could not be written");
    }
  }

  /**
   * Shutdown: waits (at most `closeWaitMs`) for calls in flight to settle, writes what is queued
   * (for at most `closeWriteMs`; what cannot be written is journaled for the next start), stops
   * the maintenance and gives back every lease of this instance. A call settling later still is
   * journaled too.
   */
  async close(): Promise<void> {
    const waitUntil = Date.now() + (this.#closed ? 0 : this.#closeWaitMs);
    while (this.#open > 0 && Date.now() < waitUntil) await sleep(20);
    if (this.#open > 0 && !this.#closed) {
      this.#log.warn({ calls: this.#open }, "shutting down with calls in flight");
    }
    if (this.#ticker !== undefined) clearInterval(this.#ticker);
    this.#ticker = undefined;
    await this.#writeBounded();
    this.#closed = true;
    this.#batcher.stop();
    this.#writeJournal(this.#batcher.takeAll(), "shutdown could not write every settlement", true);
    await this.#serial(() => this.#store.reclaimLeases({ owner: this.#book.owner })).catch(
      (error: unknown) => this.#log.error({ err: error }, "giving back leases at shutdown failed"),
    );
  }

  /**
   * One round of background upkeep: gives back idle and surplus lease, refreshes the heartbeat
   * when due (dropping every lease when it finds its rows reclaimed), reclaims dead instances'
   * leases when due. Runs on a timer; tests call it after moving the clock.
   */
  async maintain(): Promise<void> {
    if (this.#maintaining) return;
    this.#maintaining = true;
    try {
      await this.#serial(async () => {
        const now = this.#now();
        await this.#step("giving back idle leases", () =>
          this.#book.giveBack({ all: false, idleMs: this.#timing.idleMs }),
        );
        if (now - this.#lastHeartbeat >= this.#timing.heartbeatMs) {
          this.#lastHeartbeat = now;
          await this.#step("the lease heartbeat", () => this.#book.heartbeat());
        }
        if (now - this.#lastReclaim >= this.#timing.reclaimEveryMs) {
          await this.#step("reclaiming stale leases", () => this.#reclaimStale());
        }
      });
    } finally {
      this.#maintaining = false;
    }
  }

  /** The free part of this instance's lease on a subject: not spent, not held (balances). */
  freeLease(kind: LeaseKind, subject: string): number {
    return this.#book.free(kind, subject);
  }

  /** Gives this instance's free lease on a subject back now (before its quota is set anew). */
  giveBack(kind: LeaseKind, subject: string): Promise<void> {
    return this.#serial(() => this.#book.giveBackOne(kind, subject));
  }

  /** This instance's leases in memory (tests and diagnostics). */
  leases(): readonly QuotaLease[] {
    return this.#book.leases();
  }

  // Writes what is queued, retrying until `closeWriteMs` has passed.
  async #writeBounded(): Promise<void> {
    const until = Date.now() + this.#closeWriteMs;
    while (this.#batcher.pending > 0 && Date.now() < until) {
      await this.#batcher.writeAll().catch(() => sleep(50));
    }
  }

  async #reclaimStale(): Promise<void> {
    const now = this.#now();
    this.#lastReclaim = now;
    const reclaimed = await this.#store.reclaimLeases({ before: now - this.#timing.staleMs });
    if (reclaimed.leases > 0) {
      this.#log.warn(
        reclaimed,
        "reclaimed the leases of instances that stopped sending heartbeats",
      );
    }
    await this.#store.forgetBatches(now - BATCH_ID_MEMORY_MS);
  }

  async #step(what: string, task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (error) {
      this.#log.error({ err: error }, `${what} failed`);
    }
  }

  // Writes that must not interleave (charge batches, give-backs, heartbeats, reclaims) take
  // turns; only lease growth, on the request's side, runs beside them.
  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(task);
    this.#turn = run.catch(() => undefined);
    return run;
  }
}

/** What a hold needs of its accounting. */
interface HoldSink {
  /** Queues the call's row (and charge). */
  enqueue(call: PendingCall): void;
  /** The hold was settled or refunded. */
  ended(): void;
  /** The call's row when its cost (`claimed`) was above the hold and it was charged the hold. */
  capped(claimed: number, log: UsageLogInput): UsageLogInput;
}

/** A call's hold on its token's and user's leases (none on an unlimited side). */
class LeaseHold implements Hold {
  readonly id: string;
  readonly amount: number;
  readonly #book: LeaseBook;
  readonly #input: ReserveInput;
  readonly #token: QuotaLease | undefined;
  readonly #user: QuotaLease | undefined;
  readonly #sink: HoldSink;
  #done = false;

  constructor(
    book: LeaseBook,
    input: ReserveInput,
    token: QuotaLease | undefined,
    user: QuotaLease | undefined,
    sink: HoldSink,
  ) {
    this.id = input.requestId;
    this.amount = input.amount;
    this.#book = book;
    this.#input = input;
    this.#token = token;
    this.#user = user;
    this.#sink = sink;
  }

  settle(cost: number, log: UsageLogInput): void {
    if (this.#done) return;
    this.#done = true;
    this.#sink.ended();
    // The hold is what the request could cost at most (issue 15, item 3): an upstream claiming
    // more is charged the hold, and the row keeps the claim. A cost that is not a whole number
    // of credits at all (NaN) is charged the hold too.
    const claimed = Number.isNaN(cost) ? Number.POSITIVE_INFINITY : Math.max(0, Math.ceil(cost));
    const credits = Math.min(claimed, this.amount);
    const row =
      claimed > this.amount
        ? this.#sink.capped(isCount(claimed) ? claimed : Number.MAX_SAFE_INTEGER, log)
        : credits === log.credits
          ? log
          : { ...log, credits };
    const token = this.#token;
    const user = this.#user;
    this.#sink.enqueue({
      log: row,
      charge: {
        tokenId: this.#input.tokenId,
        userId: this.#input.userId,
        credits,
        tokenOwner: token?.owner,
        tokenConsumed: token === undefined ? 0 : this.#book.settle(token, this.amount, credits),
        userOwner: user?.owner,
        userConsumed: user === undefined ? 0 : this.#book.settle(user, this.amount, credits),
        tokenLease: token,
        userLease: user,
      },
    });
  }

  refund(log: UsageLogInput): void {
    if (this.#done) return;
    this.#done = true;
    this.#sink.ended();
    if (this.#token !== undefined) this.#book.unhold(this.#token, this.amount);
    if (this.#user !== undefined) this.#book.unhold(this.#user, this.amount);
    this.#sink.enqueue({ log });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
