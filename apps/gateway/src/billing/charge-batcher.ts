import { randomBytes } from "node:crypto";
import type { Logger } from "../log/logger.ts";
import type {
  BatchOutcome,
  Charge,
  ChargeBatch,
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
}

interface Batch {
  readonly batch: ChargeBatch;
  readonly calls: readonly PendingCall[];
}

const keyOf = (key: LeaseKey) => `${key.owner}\n${key.kind}\n${key.subject}`;

/**
 * Settled calls and usage rows, written in batches off the request's path: one transaction per
 * batch (`Store.writeCharges`). A batch that fails is retried as it was, with the same id, before
 * anything newer: if its commit did happen (only its answer was lost) the store recognises the
 * id and changes nothing, so no call is ever charged twice; if it did not, it is applied now.
 * Until a batch is written, its consumed parts stay in their leases (`QuotaLease.consuming`).
 */
export class ChargeBatcher {
  readonly #o: ChargeBatcherOptions;
  #queue: PendingCall[] = [];
  #failed: Batch | undefined;
  #timer: NodeJS.Timeout | undefined;
  #writeScheduled = false;
  #stopped = false;

  constructor(options: ChargeBatcherOptions) {
    this.#o = options;
  }

  /** Calls queued or in a failed batch. */
  get pending(): number {
    return this.#queue.length + (this.#failed?.calls.length ?? 0);
  }

  add(call: PendingCall): void {
    this.#queue.push(call);
    if (this.#queue.length >= this.#o.maxRows) this.#scheduleWrite();
    else this.#arm(this.#o.intervalMs);
  }

  /** Writes everything queued so far; rejects when a batch fails (it stays for a retry). */
  async writeAll(): Promise<void> {
    while (this.pending > 0) await this.#o.serial(() => this.#writeOne());
  }

  /** No more timed writes (shutdown: `writeAll` writes what is left). */
  stop(): void {
    this.#stopped = true;
    this.#disarm();
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
        // More than a batch arrived while writing: write on; less waits for the interval.
        if (this.#queue.length >= this.#o.maxRows) this.#scheduleWrite();
        else if (this.#queue.length > 0) this.#arm(this.#o.intervalMs);
      })
      .catch(() => {
        // Logged, and the retry armed, by #writeOne.
      });
  }

  async #writeOne(): Promise<void> {
    const next = this.#failed ?? this.#take();
    if (next === undefined) return;
    let outcome: BatchOutcome;
    try {
      outcome = await this.#o.store.writeCharges(next.batch, this.#o.now());
    } catch (error) {
      this.#failed = next;
      this.#arm(this.#o.intervalMs * 20);
      this.#o.log.error(
        { err: error, rows: next.calls.length, batch: next.batch.id },
        "writing charges failed; the batch will be retried",
      );
      throw error;
    }
    // Committed: from here on the batch is never retried, so its bookkeeping happens once.
    this.#failed = undefined;
    this.#written(next.calls, new Set(outcome.lost.map(keyOf)));
  }

  #take(): Batch | undefined {
    if (this.#queue.length === 0) return undefined;
    const calls = this.#queue.splice(0, this.#o.maxRows);
    const charges: Charge[] = [];
    const logs: UsageLogInput[] = [];
    for (const call of calls) {
      logs.push(call.log);
      if (call.charge !== undefined) charges.push(call.charge);
    }
    return { batch: { id: randomBytes(12).toString("base64url"), charges, logs }, calls };
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
}
