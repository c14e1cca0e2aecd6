import { randomBytes } from "node:crypto";
import type { Logger } from "../log/logger.ts";
import type { LeaseGrant, LeaseKind, Store } from "../storage/store.ts";
import { QuotaLease, type WaitOutcome } from "./quota-lease.ts";

/** A lease grows by enough for this many holds like the recent ones... */
const LEASE_HOLDS = 16;
/** ...and by at least this many credits (0.02 USD at the default 500,000 credits per USD). */
const LEASE_FLOOR = 10_000;
/** Free lease above this many times the growth size is surplus, returned while the lease is used. */
const SURPLUS_FACTOR = 2;
/** A reserve whose lease was dropped (reclaimed) under it this many times in a row gives up. */
const DROP_RETRIES = 4;

/** A random instance id: a new one per process start and after a reclaim of its leases. */
const newOwnerId = (): string => `gw_${randomBytes(9).toString("base64url")}`;

export interface LeaseBookOptions {
  readonly store: Store;
  readonly log: Logger;
  readonly now: () => number;
  /** Called with the old owner id when the instance's leases were found reclaimed. */
  readonly onDropped: (oldOwner: string) => void;
  readonly owner?: string;
}

/**
 * A hold is taken synchronously when the lease has room; otherwise waiting reserves share one
 * growing transaction (single flight). Settling is the batcher's write, not this.
 */
export class LeaseBook {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #now: () => number;
  readonly #onDropped: (oldOwner: string) => void;
  #owner: string;
  #tokens = new Map<number, QuotaLease>();
  #users = new Map<string, QuotaLease>();

  constructor(options: LeaseBookOptions) {
    this.#store = options.store;
    this.#log = options.log;
    this.#now = options.now;
    this.#onDropped = options.onDropped;
    this.#owner = options.owner ?? newOwnerId();
  }

  get owner(): string {
    return this.#owner;
  }

  /** The token's current lease (an empty one the first time). */
  token(id: number): QuotaLease {
    return this.#tokens.get(id) ?? this.#open(this.#tokens, id, "token", String(id));
  }

  /** The user's current lease (an empty one the first time). */
  user(id: string): QuotaLease {
    return this.#users.get(id) ?? this.#open(this.#users, id, "user", id);
  }

  #open<K>(map: Map<K, QuotaLease>, id: K, kind: LeaseKind, subject: string): QuotaLease {
    const lease = new QuotaLease({ owner: this.#owner, kind, subject }, this.#now());
    map.set(id, lease);
    return lease;
  }

  /** This instance's lease on a subject, if it has one. */
  #find(kind: LeaseKind, subject: string): QuotaLease | undefined {
    return kind === "token" ? this.#tokens.get(Number(subject)) : this.#users.get(subject);
  }

  /** The free part of this instance's lease on a subject (0 when it has none). */
  free(kind: LeaseKind, subject: string): number {
    return this.#find(kind, subject)?.free ?? 0;
  }

  /**
   * Takes a hold of `amount` on the subject, growing its lease when needed. The lease holding it,
   * or undefined when the subject cannot cover it.
   */
  async acquire(kind: LeaseKind, subject: string, amount: number): Promise<QuotaLease | undefined> {
    for (let attempt = 0; attempt < DROP_RETRIES; attempt++) {
      const lease = kind === "token" ? this.token(Number(subject)) : this.user(subject);
      if (lease.tryHold(amount, this.#now())) return lease;
      const outcome = await new Promise<WaitOutcome>((resolve, reject) => {
        lease.waiters.push({ amount, resolve, reject });
        this.#grow(lease);
      });
      if (outcome === "held") return lease;
      if (outcome === "short") return undefined;
    }
    this.#log.error({ kind, subject, amount }, "leases kept being reclaimed: refusing the call");
    return undefined;
  }

  /** Ends a hold without charging; waiting reserves may now fit. */
  unhold(lease: QuotaLease, amount: number): void {
    lease.unhold(amount, this.#now());
    if (lease.waiters.length > 0) this.#grow(lease);
  }

  /** Ends a settled hold (see QuotaLease.settle); returns the consumed part. */
  settle(lease: QuotaLease, hold: number, cost: number): number {
    const consumed = lease.settle(hold, cost, this.#now());
    if (lease.waiters.length > 0) this.#grow(lease);
    return consumed;
  }

  // Serves the waiters, first come first served, from the free part; grows the lease for those
  // left. One loop per lease at a time: the reserves that arrive meanwhile wait for it.
  #grow(lease: QuotaLease): void {
    if (lease.growing) return;
    lease.growing = true;
    // Started a microtask later, so the reserves of the same tick all join the first growth.
    Promise.resolve()
      .then(() => this.#growLoop(lease))
      .catch((error: unknown) => {
        for (const waiter of lease.waiters.splice(0)) waiter.reject(error);
      })
      .finally(() => {
        lease.growing = false;
        // Reserves that arrived after the loop's last look found it still growing: serve them.
        if (lease.waiters.length > 0 && lease.write === undefined && !lease.dropped) {
          this.#grow(lease);
        }
      });
  }

  async #growLoop(lease: QuotaLease): Promise<void> {
    for (;;) {
      this.#serve(lease);
      if (lease.waiters.length === 0 || lease.dropped) return;
      if (lease.write !== undefined) {
        await lease.write;
        continue;
      }
      const sizes = growthSizes(lease);
      const written = this.#store.takeLease(lease, sizes, this.#now(), lease.hasRow);
      lease.write = written.then(
        () => undefined,
        () => undefined,
      );
      let grant: LeaseGrant;
      try {
        grant = await written;
      } finally {
        lease.write = undefined;
      }
      if (lease.dropped) {
        // Dropped while growing: whatever this grant added to the old row goes back with it.
        if (typeof grant === "number") this.#onDropped(lease.owner);
        return;
      }
      if (grant === "lost") {
        this.drop("a lease row of this instance was gone when it grew");
        return;
      }
      if (grant === "short") {
        // Not even the first waiter's missing part fitted: it, and every waiter needing as
        // much, is refused; smaller ones are tried again.
        const refused = lease.waiters[0]?.amount ?? 0;
        for (const waiter of lease.waiters.filter((w) => w.amount >= refused)) {
          waiter.resolve("short");
        }
        lease.waiters.splice(
          0,
          lease.waiters.length,
          ...lease.waiters.filter((w) => w.amount < refused),
        );
        continue;
      }
      lease.leased += grant;
      lease.hasRow = true;
    }
  }

  #serve(lease: QuotaLease): void {
    const now = this.#now();
    while (lease.waiters.length > 0 && !lease.dropped) {
      const first = lease.waiters[0] as (typeof lease.waiters)[number];
      if (lease.free < first.amount) return;
      lease.waiters.shift();
      lease.hold(first.amount, now);
      first.resolve("held");
    }
  }

  /**
   * Gives free lease back to the database: all of it (`all`, at shutdown or flush), or that of
   * leases idle for `idleMs`, or the surplus of busy ones. Forgets leases left with nothing.
   * Runs in the accounting's write turn, never beside a heartbeat check.
   */
  async giveBack(options: { readonly all: boolean; readonly idleMs: number }): Promise<void> {
    for (const map of [this.#tokens, this.#users] as Map<unknown, QuotaLease>[]) {
      for (const [id, lease] of map) {
        if (lease.write !== undefined || lease.growing || lease.waiters.length > 0) continue;
        const now = this.#now();
        const idle = options.all || now - lease.lastUsed >= options.idleMs;
        const free = lease.free;
        const keep = idle ? 0 : growthSize(lease, 0);
        const amount = free > (idle ? 0 : keep * SURPLUS_FACTOR) ? free - keep : 0;
        // An idle lease consumed down to nothing still has its (empty) row: delete it too.
        if (amount > 0 || (idle && lease.hasRow && lease.leased === 0)) {
          await this.#giveBack(lease, amount);
        }
        if (lease.idle && !lease.hasRow && now - lease.lastUsed >= options.idleMs) map.delete(id);
      }
    }
  }

  /** Gives back the free part of one subject's lease now (before its quota is set anew). */
  async giveBackOne(kind: LeaseKind, subject: string): Promise<void> {
    const lease = this.#find(kind, subject);
    if (lease === undefined || lease.dropped) return;
    if (lease.write !== undefined) await lease.write;
    // Reserves waiting on it take what is free first.
    if (lease.free > 0 && lease.write === undefined && lease.waiters.length === 0) {
      await this.#giveBack(lease, lease.free);
    }
  }

  async #giveBack(lease: QuotaLease, amount: number): Promise<void> {
    // Out of reach of new holds before the write starts.
    lease.leased -= amount;
    const written = this.#store.returnLease(lease, amount);
    lease.write = written.then(
      () => undefined,
      () => undefined,
    );
    try {
      const result = await written;
      if (result === "lost") {
        if (!lease.dropped) this.drop("a lease row of this instance was gone when it was returned");
        return;
      }
      lease.hasRow = result === "kept";
    } catch (error) {
      // Not written: the credits are still in the row, so they are this lease's again.
      lease.leased += amount;
      throw error;
    } finally {
      lease.write = undefined;
      lease.lastUsed = this.#now();
      if (lease.waiters.length > 0) this.#grow(lease);
    }
  }

  /**
   * Refreshes the heartbeat of every lease row of this instance. A row it knew it had and the
   * heartbeat did not find was reclaimed (this instance looked dead to another): every lease is
   * dropped. Runs in the accounting's write turn, never beside a give-back.
   */
  async heartbeat(): Promise<void> {
    const owner = this.#owner;
    const expected = [...this.#tokens.values(), ...this.#users.values()].filter((l) => l.hasRow);
    const alive = new Set(
      (await this.#store.heartbeatLeases(owner, this.#now())).map((k) => `${k.kind}:${k.subject}`),
    );
    if (this.#owner !== owner) return;
    const missing = expected.filter(
      (lease) => !lease.dropped && !alive.has(`${lease.kind}:${lease.subject}`),
    );
    if (missing.length > 0) {
      this.drop(`the heartbeat found ${missing.length} lease row(s) of this instance reclaimed`);
    }
  }

  /**
   * This instance's leases were reclaimed (it looked dead to another instance): forget them all
   * and continue under a new owner id. Calls holding from them still settle, charged in full
   * without a hold; what is left of the old rows is given back (`onDropped`).
   */
  drop(reason: string): void {
    const old = this.#owner;
    this.#owner = newOwnerId();
    const leases = [...this.#tokens.values(), ...this.#users.values()];
    this.#tokens = new Map();
    this.#users = new Map();
    for (const lease of leases) {
      lease.dropped = true;
      for (const waiter of lease.waiters.splice(0)) waiter.resolve("dropped");
    }
    this.#log.warn(
      { oldOwner: old, owner: this.#owner, leases: leases.length },
      `dropping this instance's leases: ${reason}; calls in flight will be charged without a hold`,
    );
    this.#onDropped(old);
  }

  /** Every lease (tests and diagnostics). */
  leases(): QuotaLease[] {
    return [...this.#tokens.values(), ...this.#users.values()];
  }
}

/** Enough for several holds like the recent ones (or the one waiting), and for whoever waits. */
function growthSize(lease: QuotaLease, missing: number): number {
  const typical = Math.max(lease.typicalHold, lease.waiters[0]?.amount ?? 0);
  return Math.max(missing, LEASE_HOLDS * typical, LEASE_FLOOR);
}

/**
 * The sizes a growth tries, in one transaction, largest first: a lease for several holds; what
 * every waiter needs; what the first waiter needs. Never more than the subject has left: a size
 * that does not fit is simply not taken.
 */
function growthSizes(lease: QuotaLease): number[] {
  const free = lease.free;
  let all = 0;
  for (const waiter of lease.waiters) all += waiter.amount;
  const first = (lease.waiters[0]?.amount ?? 0) - free;
  const everyone = all - free;
  const sizes = [growthSize(lease, everyone)];
  if (everyone < (sizes[0] as number)) sizes.push(everyone);
  if (first < everyone) sizes.push(first);
  return sizes;
}
