import type { BillingConfig } from "../config/config-schema.ts";
import type { Logger } from "../log/logger.ts";
import type {
  ReserveResult,
  Settlement,
  SettleOutcome,
  Store,
  UsageLogInput,
} from "../storage/store.ts";

const FLUSH_ROUNDS = 8;
const REFUND_ATTEMPTS = 5;

/** A reservation held for one call; settle or refund it exactly once (later calls are no-ops). */
export interface Hold {
  readonly id: string;
  readonly amount: number;
  /** Charge `credits` (the real cost) and write the call's log row. */
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

/**
 * The money rules around every call (issue: accounts and money). Reserving is one atomic
 * database operation on the request's path; settling and logging are queued and written in
 * batches (one transaction per batch), off the request's path. `flush()` waits for every queued
 * write, and runs at shutdown.
 */
export class Accounting {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #maxRows: number;
  readonly #intervalMs: number;
  #queue: Settlement[] = [];
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #pendingWrites = 0;

  constructor(store: Store, billing: BillingConfig, log: Logger) {
    this.#store = store;
    this.#log = log;
    this.#maxRows = billing.flush_max_rows;
    this.#intervalMs = billing.flush_interval_ms;
  }

  async reserve(input: ReserveInput): Promise<ReserveOutcome> {
    const result: ReserveResult = await this.#store.reserve({
      id: input.requestId,
      tokenId: input.tokenId,
      userId: input.userId,
      amount: input.amount,
      holdToken: !input.tokenUnlimited,
      holdUser: !input.userUnlimited,
    });
    if (result === "token" || result === "user") return { ok: false, short: result };
    // A duplicate request id cannot happen (ids are random per request); treat it as a refusal
    // rather than settle someone else's hold.
    if (result === "duplicate") return { ok: false, short: "token" };
    return { ok: true, hold: this.#hold(input.requestId, input.amount) };
  }

  /** A log row for a call that held nothing (refused before or at reservation). */
  logUnheld(row: UsageLogInput): void {
    this.#track(this.#store.appendLogs([row]));
  }

  /**
   * Waits until every settlement, refund and log row queued so far is written (a batch that
   * keeps failing is given up after a few rounds, loudly, so shutdown cannot hang).
   */
  async flush(): Promise<void> {
    for (let round = 0; round < FLUSH_ROUNDS; round++) {
      this.#drain();
      if (this.#pendingWrites === 0 && this.#queue.length === 0) return;
      await this.#writing;
    }
    if (this.#queue.length > 0) {
      this.#log.error({ rows: this.#queue.length }, "settlements could not be written");
    }
  }

  #hold(id: string, amount: number): Hold {
    let done = false;
    return {
      id,
      amount,
      settle: (credits, log) => {
        if (done) return;
        done = true;
        this.#queue.push({ id, amount: credits, log });
        if (this.#queue.length >= this.#maxRows) this.#drain();
        else this.#timer ??= setTimeout(() => this.#drain(), this.#intervalMs);
      },
      refund: (log) => {
        if (done) return;
        done = true;
        this.#track(this.#refund(id, log, REFUND_ATTEMPTS));
      },
    };
  }

  // A refund that fails would keep the caller's credits held: retry it (refund is idempotent).
  async #refund(id: string, log: UsageLogInput, attempts: number): Promise<void> {
    try {
      await this.#store.refund(id, log);
    } catch (error) {
      if (attempts <= 1) throw error;
      await new Promise((resolve) => setTimeout(resolve, this.#intervalMs * 4));
      await this.#refund(id, log, attempts - 1);
    }
  }

  #drain(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#queue.length === 0) return;
    const batch = this.#queue;
    this.#queue = [];
    this.#track(
      this.#store.settle(batch).then(
        (outcomes) => this.#reportUnheld(batch, outcomes),
        (error: unknown) => {
          // The batch is retried: settle is idempotent, so a batch that did commit is not charged twice.
          this.#log.error(
            { err: error, rows: batch.length },
            "writing settlements failed; retrying",
          );
          this.#queue.unshift(...batch);
          this.#timer ??= setTimeout(() => this.#drain(), this.#intervalMs * 20);
        },
      ),
    );
  }

  // Charged without a hold: the hold was released as stale at a start (a call slower than any
  // call should be, or a clock far off). The money is not lost, but the balance could not be
  // checked first, so this is worth a look.
  #reportUnheld(batch: readonly Settlement[], outcomes: readonly SettleOutcome[]): void {
    outcomes.forEach((outcome, i) => {
      const settlement = batch[i];
      if (outcome !== "unheld" || settlement === undefined) return;
      this.#log.warn(
        {
          requestId: settlement.id,
          tokenId: settlement.log.tokenId,
          userId: settlement.log.userId,
          credits: settlement.amount,
        },
        "settled a call whose hold had been released as stale: charged without a hold",
      );
    });
  }

  #track(write: Promise<unknown>): void {
    this.#pendingWrites++;
    const tracked = write
      .catch((error: unknown) => this.#log.error({ err: error }, "accounting write failed"))
      .finally(() => {
        this.#pendingWrites--;
      });
    this.#writing = Promise.all([this.#writing, tracked]).then(() => undefined);
  }
}
