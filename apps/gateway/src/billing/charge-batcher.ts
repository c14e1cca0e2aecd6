import { randomBytes } from "node:crypto";
import type { Logger } from "../log/logger.ts";
import { isDatabaseUnavailable } from "../storage/database-unavailable.ts";
import type {
  BatchOutcome,
  Charge,
  ChargeBatch,
  DeadLetter,
  LeaseKey,
  Store,
  UsageLogInput,
} from "../storage/store.ts";
import type { QuotaLease } from "./quota-lease.ts";

/** A call's usage row, and its charge when it settled (refunded and refused calls have none). */
export interface PendingCall {
  readonly log: UsageLogInput;
  readonly charge?: PendingCharge;
}

/** A settled call's charge, as the store takes it, with the leases its holds came from. */
export interface PendingCharge extends Charge {
  readonly tokenLease: QuotaLease | undefined;
  readonly userLease: QuotaLease | undefined;
}

export interface ChargeBatcherOptions {
  readonly store: Store;
  readonly log: Logger;
  readonly now: () => number;
  /** `billing.flush_max_rows`: a batch is written as soon as this many calls wait. */
  readonly maxRows: number;
  /** `billing.flush_interval_ms`: and at the latest this long after the first of them. */
  readonly intervalMs: number;
  /** Runs a write in the accounting's write turn (one at a time, in order). */
  readonly serial: <T>(task: () => Promise<T>) => Promise<T>;
  /** A lease whose row was gone when a batch drew on it: the instance's leases were reclaimed. */
  readonly onLostLease: (lease: QuotaLease) => void;
  /**
   * What is not written yet, after a write failed and after each write while anything failed
   * is left (empty once caught up): the journal keeps it, so a crash during a database outage
   * loses no settled call.
   */
  readonly onUnwritten?: (batches: SpilledBatch[]) => void;
}

/**
 * How a batch is written. `whole`: as queued. A single call that fails whole while the database
 * takes other writes is isolated: `letter` charges it and keeps its usage row as a dead letter;
 * `unapplied` (when even that fails) keeps call and charge as a dead letter, charging nothing.
 */
export type Stage = "whole" | "letter" | "unapplied";

/** A batch not written, as the journal keeps it: its id (and those it was split from), its calls. */
export interface SpilledBatch {
  readonly id: string;
  readonly stage: Stage;
  readonly supersedes?: readonly string[];
  readonly reason?: string;
  readonly calls: readonly { readonly log: UsageLogInput; readonly charge?: Charge }[];
}

interface Batch {
  readonly batch: ChargeBatch;
  readonly calls: readonly PendingCall[];
  readonly stage: Stage;
  /** Failed writes of this batch since the database was last seen down. */
  tries: number;
  /** Of those, the ones whose error was not an outage's (a lost connection, a server starting). */
  dataTries: number;
}

/** Failed tries of a batch before its data is suspected (the first retry covers a lost answer). */
const TRIES_BEFORE_ISOLATING = 2;
/**
 * Outage errors count too, but only after more than a pool's worth: a database coming back
 * answers "starting up" or cuts pooled connections while empty batches already succeed, and a
 * call whose row is fine must not become a dead letter for that.
 */
const OUTAGE_TRIES_BEFORE_ISOLATING = 20;
/** How often a call set aside (it could not be written in any form) is tried again. */
const STUCK_RETRY_MS = 30_000;

const keyOf = (key: LeaseKey) => `${key.owner}\n${key.kind}\n${key.subject}`;
const newId = () => randomBytes(12).toString("base64url");

/** The part of a pending charge the store takes (no lease objects: it is also serialised). */
export const storedCharge = (c: PendingCharge): Charge => ({
  tokenId: c.tokenId,
  userId: c.userId,
  credits: c.credits,
  tokenOwner: c.tokenOwner,
  tokenConsumed: c.tokenConsumed,
  userOwner: c.userOwner,
  userConsumed: c.userConsumed,
});

/**
 * A failed batch is retried first with the same id, so a commit whose answer was lost is never
 * charged twice; one that fails while an empty batch succeeds is split down to the bad call
 * (dead-lettered, loudly) so the others are still written.
 */
export class ChargeBatcher {
  readonly #o: ChargeBatcherOptions;
  #queue: PendingCall[] = [];
  /** Batches that failed (or the halves of one), retried first, in order. */
  #failed: Batch[] = [];
  /**
   * Lone calls that fail even as uncharged dead letters while the database takes other writes:
   * set aside so they hold up nothing, retried every `STUCK_RETRY_MS`, journaled at shutdown.
   */
  #stuck: Batch[] = [];
  #stuckTimer: NodeJS.Timeout | undefined;
  #timer: NodeJS.Timeout | undefined;
  #writeScheduled = false;
  #stopped = false;
  /** Whether `onUnwritten` was last told of something unwritten. */
  #spooled = false;

  constructor(options: ChargeBatcherOptions) {
    this.#o = options;
  }

  /** Calls queued, in a failed batch, or set aside. */
  get pending(): number {
    return this.#active + this.#stuck.length;
  }

  /** Calls queued or in a failed batch: what `writeAll` writes before anything else. */
  get #active(): number {
    let failed = 0;
    for (const b of this.#failed) failed += b.calls.length;
    return this.#queue.length + failed;
  }

  add(call: PendingCall): void {
    this.#queue.push(call);
    if (this.#queue.length >= this.#o.maxRows) this.#scheduleWrite();
    else this.#arm(this.#o.intervalMs);
  }

  /**
   * Batches restored from a journal (a previous run's, see spill-journal.ts): written first,
   * under their own ids, so one that was applied after all changes nothing.
   */
  restore(batches: readonly SpilledBatch[]): void {
    for (const spilled of batches) {
      const calls = spilled.calls.map(
        (call): PendingCall =>
          call.charge === undefined
            ? { log: call.log }
            : {
                log: call.log,
                charge: { ...call.charge, tokenLease: undefined, userLease: undefined },
              },
      );
      this.#failed.push(
        batchOf(calls, spilled.stage, spilled.supersedes, spilled.reason, spilled.id),
      );
    }
  }

  /**
   * Everything not written, as batches (failed ones keep their ids), and forgets it: for the
   * journal at shutdown.
   */
  takeAll(): SpilledBatch[] {
    const batches = [...this.#failed, ...this.#stuck];
    this.#failed = [];
    this.#stuck = [];
    for (let next = this.#take(); next !== undefined; next = this.#take()) batches.push(next);
    return batches.map(spilledOf);
  }

  /**
   * Everything not written, as batches, kept: queued calls are formed into batches first, so
   * the journal and the retries name them by the same ids (a batch both journaled and written
   * is applied once).
   */
  #unwritten(): SpilledBatch[] {
    for (let next = this.#take(); next !== undefined; next = this.#take()) this.#failed.push(next);
    return [...this.#failed, ...this.#stuck].map(spilledOf);
  }

  #spool(): void {
    const report = this.#o.onUnwritten;
    if (report === undefined) return;
    const batches = this.#unwritten();
    if (batches.length === 0 && !this.#spooled) return;
    this.#spooled = batches.length > 0;
    report(batches);
  }

  /**
   * Writes everything queued so far, then tries the calls set aside once; rejects when a batch
   * fails (it stays for a retry).
   */
  async writeAll(): Promise<void> {
    while (this.#active > 0) await this.#o.serial(() => this.#writeOne());
    if (this.#stuck.length > 0) await this.#o.serial(() => this.#retryStuck());
  }

  /** No more timed writes (shutdown: `writeAll` writes what is left). */
  stop(): void {
    this.#stopped = true;
    this.#disarm();
    if (this.#stuckTimer !== undefined) clearTimeout(this.#stuckTimer);
    this.#stuckTimer = undefined;
  }

  // Each call set aside is tried once more; those that fail again stay aside.
  async #retryStuck(): Promise<void> {
    const stuck = this.#stuck.splice(0);
    let failure: unknown;
    for (const batch of stuck) {
      try {
        const outcome = await this.#o.store.writeCharges(batch.batch, this.#o.now());
        this.#committed(batch, outcome);
      } catch (error) {
        this.#stuck.push(batch);
        failure = error;
      }
    }
    if (this.#spooled) this.#spool();
    if (this.#stuck.length > 0) {
      this.#armStuck();
      throw failure;
    }
  }

  #armStuck(): void {
    if (this.#stopped || this.#stuckTimer !== undefined) return;
    this.#stuckTimer = setTimeout(() => {
      this.#stuckTimer = undefined;
      this.#o.serial(() => this.#retryStuck()).catch(() => undefined);
    }, STUCK_RETRY_MS);
    this.#stuckTimer.unref();
  }

  #arm(delayMs: number): void {
    if (this.#stopped || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => this.#scheduleWrite(), delayMs);
  }

  #disarm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #scheduleWrite(): void {
    this.#disarm();
    if (this.#writeScheduled) return;
    this.#writeScheduled = true;
    this.#o
      .serial(async () => {
        this.#writeScheduled = false;
        await this.#writeOne();
        // Halves of a failed batch go at once; more than a batch queued too; less waits.
        if (this.#failed.length > 0 || this.#queue.length >= this.#o.maxRows) this.#scheduleWrite();
        else if (this.#queue.length > 0) this.#arm(this.#o.intervalMs);
      })
      .catch(() => {
        // Logged, and the retry armed, by #writeOne.
      });
  }

  async #writeOne(): Promise<void> {
    const next = this.#failed[0] ?? this.#take();
    if (next === undefined) return;
    let outcome: BatchOutcome;
    try {
      outcome = await this.#o.store.writeCharges(next.batch, this.#o.now());
    } catch (error) {
      if (this.#failed[0] !== next) this.#failed.unshift(next);
      next.tries++;
      if (!isDatabaseUnavailable(error)) next.dataTries++;
      if (next.dataTries >= TRIES_BEFORE_ISOLATING || next.tries >= OUTAGE_TRIES_BEFORE_ISOLATING) {
        if (await this.#databaseWrites()) {
          this.#isolate(next, error);
          return;
        }
        // The database itself refuses writes: an outage, not this batch's data. Failures count
        // again from zero, so one failed write as it comes back (a pooled connection the restart
        // broke) does not turn a call whose row is fine into a dead letter.
        next.tries = 0;
        next.dataTries = 0;
      }
      this.#arm(this.#o.intervalMs * 20);
      this.#spool();
      // Once per round of tries: an outage logs every 20 failures, not every retry.
      if (next.tries === 1) {
        this.#o.log.error(
          { err: error, rows: next.calls.length, batch: next.batch.id, tries: next.tries },
          "writing charges failed; the batch will be retried",
        );
      }
      throw error;
    }
    if (this.#failed[0] === next) this.#failed.shift();
    this.#committed(next, outcome);
    if (this.#spooled) this.#spool();
  }

  // Committed: from here on the batch is never retried, so its bookkeeping happens once.
  #committed(next: Batch, outcome: BatchOutcome): void {
    // Already applied: a batch it was split from committed after all, charges included.
    if (next.stage === "unapplied" && !outcome.alreadyApplied) this.#released(next.calls);
    else this.#written(next.calls, new Set(outcome.lost.map(keyOf)));
    if (next.stage !== "whole" && !outcome.alreadyApplied) {
      this.#o.log.error(
        {
          requestId: next.calls[0]?.log.requestId,
          batch: next.batch.id,
          charged: next.stage === "letter",
          credits: next.calls[0]?.charge?.credits ?? 0,
          reason: next.batch.deadLetters?.[0]?.reason,
        },
        next.stage === "letter"
          ? "billing dead letter: a usage row could not be written; the call was charged and its row kept in billing_dead_letters"
          : "billing dead letter: a call could not be charged; it is kept in billing_dead_letters for an operator",
      );
    }
  }

  /** Whether the database takes an (empty) batch: if so, a batch that keeps failing is at fault. */
  async #databaseWrites(): Promise<boolean> {
    try {
      await this.#o.store.writeCharges({ id: newId(), charges: [], logs: [] }, this.#o.now());
      return true;
    } catch {
      return false;
    }
  }

  // Replaces the failing batch (first in #failed) by its halves, or a lone call by its next
  // stage; a lone call that fails even uncharged is set aside.
  #isolate(failing: Batch, error: unknown): void {
    if (failing.stage === "unapplied" && failing.calls.length === 1) {
      this.#failed.shift();
      this.#stuck.push(failing);
      this.#armStuck();
      this.#o.log.error(
        { err: error, requestId: failing.calls[0]?.log.requestId, batch: failing.batch.id },
        "billing dead letter: a call can be written neither charged nor uncharged; set aside, retried every 30 s",
      );
      return;
    }
    const supersedes = [...(failing.batch.supersedes ?? []), failing.batch.id];
    const reason = String((error as Error)?.message ?? error).slice(0, 2_000);
    let replacement: Batch[];
    if (failing.calls.length > 1) {
      const half = Math.ceil(failing.calls.length / 2);
      replacement = [failing.calls.slice(0, half), failing.calls.slice(half)].map((calls) =>
        batchOf(calls, "whole", supersedes),
      );
    } else {
      const stage = failing.stage === "whole" ? "letter" : "unapplied";
      replacement = [batchOf(failing.calls, stage, supersedes, reason)];
    }
    this.#o.log.warn(
      { err: error, batch: failing.batch.id, rows: failing.calls.length, stage: failing.stage },
      "a charge batch keeps failing while the database is up: isolating the row at fault",
    );
    this.#failed.splice(0, 1, ...replacement);
  }

  #take(): Batch | undefined {
    if (this.#queue.length === 0) return undefined;
    return batchOf(this.#queue.splice(0, this.#o.maxRows), "whole", undefined);
  }

  // The leases give up what the batch consumed from them; a lease whose row was gone could not
  // (its whole amount went back to the subject when it was reclaimed), so the calls drawing on
  // it were charged in full without a hold: say so, and drop the instance's leases.
  #written(calls: readonly PendingCall[], lost: ReadonlySet<string>): void {
    const lostLeases = new Set<QuotaLease>();
    const gave = (lease: QuotaLease | undefined, consumed: number): boolean => {
      if (lease === undefined) return true;
      const ok = consumed === 0 || lost.size === 0 || !lost.has(keyOf(lease));
      lease.written(consumed, ok);
      if (!ok) lostLeases.add(lease);
      return ok;
    };
    for (const call of calls) {
      const c = call.charge;
      if (c === undefined) continue;
      const tokenHeld = gave(c.tokenLease, c.tokenConsumed);
      const userHeld = gave(c.userLease, c.userConsumed);
      if (tokenHeld && userHeld) continue;
      this.#o.log.warn(
        { requestId: call.log.requestId, tokenId: c.tokenId, userId: c.userId, credits: c.credits },
        "settled a call whose lease had been reclaimed: charged without a hold",
      );
    }
    for (const lease of lostLeases) this.#o.onLostLease(lease);
  }

  // Charged nothing: the consumed parts are free in their leases again (the rows still hold them).
  #released(calls: readonly PendingCall[]): void {
    for (const call of calls) {
      call.charge?.tokenLease?.written(call.charge.tokenConsumed, false);
      call.charge?.userLease?.written(call.charge.userConsumed, false);
    }
  }
}

function spilledOf(b: Batch): SpilledBatch {
  return {
    id: b.batch.id,
    stage: b.stage,
    ...(b.batch.supersedes === undefined ? {} : { supersedes: b.batch.supersedes }),
    ...(b.stage === "whole" ? {} : { reason: b.batch.deadLetters?.[0]?.reason ?? "" }),
    calls: b.calls.map((call) =>
      call.charge === undefined
        ? { log: call.log }
        : { log: call.log, charge: storedCharge(call.charge) },
    ),
  };
}

function batchOf(
  calls: readonly PendingCall[],
  stage: Stage,
  supersedes: readonly string[] | undefined,
  reason = "",
  id = newId(),
): Batch {
  const charges: Charge[] = [];
  const logs: UsageLogInput[] = [];
  const deadLetters: DeadLetter[] = [];
  for (const call of calls) {
    const charge = call.charge === undefined ? undefined : storedCharge(call.charge);
    if (stage === "whole") logs.push(call.log);
    else {
      deadLetters.push({
        requestId: call.log.requestId,
        reason,
        applied: stage === "letter" && charge !== undefined,
        charge,
        log: call.log,
      });
    }
    if (charge !== undefined && stage !== "unapplied") charges.push(charge);
  }
  return {
    batch: {
      id,
      charges,
      logs,
      ...(supersedes === undefined ? {} : { supersedes }),
      ...(deadLetters.length === 0 ? {} : { deadLetters }),
    },
    calls,
    stage,
    tries: 0,
    dataTries: 0,
  };
}
