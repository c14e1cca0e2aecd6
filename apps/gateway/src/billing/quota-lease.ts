import type { LeaseKey, LeaseKind } from "../storage/store.ts";

/** How a reserve that waited for its lease to grow ended. */
export type WaitOutcome =
  /** The hold was taken. */
  | "held"
  /** The subject could not cover it: 402. */
  | "short"
  /** The instance's leases were reclaimed while it waited: try again on the new ones. */
  | "dropped";

export interface Waiter {
  readonly amount: number;
  readonly resolve: (outcome: WaitOutcome) => void;
  readonly reject: (error: unknown) => void;
}

// A recent hold's weight in the lease size fades by 1/16 per later hold, so one large call does
// not size this subject's leases for long.
const FADE = 15 / 16;

/**
 * Synchronous, so a hold from a lease with room costs no I/O. `leased` is the lease row as this
 * instance knows it: the row's only writer besides a reclaim.
 */
export class QuotaLease implements LeaseKey {
  readonly owner: string;
  readonly kind: LeaseKind;
  readonly subject: string;
  leased = 0;
  /** Holds of calls in flight. */
  held = 0;
  /** Consumed parts of settled calls, still in the lease row until their batch is written. */
  consuming = 0;
  /** Whether the lease row exists (so growing it updates rather than inserts). */
  hasRow = false;
  /** Set when the instance's leases were reclaimed: this object is no longer used for new holds. */
  dropped = false;
  /** Clock time of the last hold taken or given back: idle leases are returned. */
  lastUsed: number;
  /** A fading maximum of recent holds: sizes the next growth. */
  typicalHold = 0;
  /** Reserves waiting for the lease to grow, first come first served. */
  readonly waiters: Waiter[] = [];
  /** Set while the lease row is being grown or given back: one such write at a time. */
  write: Promise<void> | undefined;
  /** Set while a growth loop serves the waiters (single flight). */
  growing = false;

  constructor(key: LeaseKey, now: number) {
    this.owner = key.owner;
    this.kind = key.kind;
    this.subject = key.subject;
    this.lastUsed = now;
  }

  /** What the next holds can take. Never negative: holds and consumed parts come out of `leased`. */
  get free(): number {
    return this.leased - this.held - this.consuming;
  }

  /** Takes a hold when there is room and no earlier reserve waits; false otherwise. */
  tryHold(amount: number, now: number): boolean {
    if (this.dropped || this.waiters.length > 0 || this.free < amount) return false;
    this.hold(amount, now);
    return true;
  }

  hold(amount: number, now: number): void {
    this.held += amount;
    this.lastUsed = now;
    this.typicalHold = Math.max(amount, Math.floor(this.typicalHold * FADE));
  }

  /**
   * A call settled: its hold ends; the consumed part (never more than the hold: a cost above it
   * is an overdraft, charged without lease) stays in the lease until its batch is written, and
   * the rest is free again. Returns the consumed part.
   */
  settle(hold: number, cost: number, now: number): number {
    const consumed = Math.min(cost, hold);
    this.held -= hold;
    this.consuming += consumed;
    this.lastUsed = now;
    return consumed;
  }

  /** A hold given back whole (a refund, or the other side of the call could not be held). */
  unhold(amount: number, now: number): void {
    this.held -= amount;
    this.lastUsed = now;
  }

  /** A batch was written: the lease row gave up `consumed` (or was gone: `rowGaveIt` false). */
  written(consumed: number, rowGaveIt: boolean): void {
    this.consuming -= consumed;
    if (rowGaveIt) this.leased -= consumed;
  }

  /** Nothing held, owed or waiting: the object can be forgotten once its row is gone. */
  get idle(): boolean {
    return (
      this.leased === 0 &&
      this.held === 0 &&
      this.consuming === 0 &&
      this.waiters.length === 0 &&
      this.write === undefined &&
      !this.growing
    );
  }
}
