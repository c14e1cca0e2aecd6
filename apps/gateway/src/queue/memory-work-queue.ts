import { systemClock, type WorkClock } from "./work-clock.ts";
import type { WorkHandler, WorkKind, WorkQueue } from "./work-queue.ts";

// The in-process driver (no `redis_url`): one timer per (kind, id), kept at the earliest time
// asked for. A job that fires before its kind has a handler waits for `process`. The same
// (kind, id) never runs twice at once: a job due while its previous run is still going runs
// once more right after it. Nothing here survives a restart; the rows in the database do, and
// whoever calls `process` looks for due rows when it starts.

export interface MemoryWorkQueueOptions {
  /** Time and timers (default: the system's, unref'd); tests pass a ManualClock. */
  readonly clock?: WorkClock;
  /** A handler threw: the job is not retried here (its row is still due, so it comes back). */
  readonly onError?: (error: unknown, kind: WorkKind, id: string) => void;
}

interface Timer {
  readonly at: number;
  handle: unknown;
}

const keyOf = (kind: WorkKind, id: string) => `${kind}\u0000${id}`;

export class MemoryWorkQueue implements WorkQueue {
  readonly clock: WorkClock;
  readonly #onError: (error: unknown, kind: WorkKind, id: string) => void;
  readonly #timers = new Map<string, Timer>();
  readonly #handlers = new Map<WorkKind, WorkHandler>();
  /** Jobs that fired before their kind had a handler. */
  readonly #waiting = new Map<WorkKind, Set<string>>();
  readonly #running = new Map<string, Promise<void>>();
  /** Jobs that fired while their previous run was still going. */
  readonly #again = new Set<string>();
  #closed = false;

  constructor(options: MemoryWorkQueueOptions = {}) {
    this.clock = options.clock ?? systemClock;
    this.#onError = options.onError ?? (() => {});
  }

  async schedule(kind: WorkKind, id: string, atMs: number): Promise<void> {
    if (this.#closed) return;
    const key = keyOf(kind, id);
    const existing = this.#timers.get(key);
    if (existing !== undefined) {
      if (existing.at <= atMs) return;
      this.clock.clearTimer(existing.handle);
    }
    const timer: Timer = { at: atMs, handle: undefined };
    this.#timers.set(key, timer);
    this.#arm(kind, id, timer);
  }

  #arm(kind: WorkKind, id: string, timer: Timer): void {
    const key = keyOf(kind, id);
    timer.handle = this.clock.setTimer(() => {
      if (this.#timers.get(key) !== timer) return;
      // A wait longer than one timer allows (or a timer that fired early) waits on.
      if (this.clock.now() < timer.at) {
        this.#arm(kind, id, timer);
        return;
      }
      this.#timers.delete(key);
      this.#run(kind, id);
    }, timer.at - this.clock.now());
  }

  #run(kind: WorkKind, id: string): void {
    if (this.#closed) return;
    const handler = this.#handlers.get(kind);
    if (handler === undefined) {
      let waiting = this.#waiting.get(kind);
      if (waiting === undefined) {
        waiting = new Set();
        this.#waiting.set(kind, waiting);
      }
      waiting.add(id);
      return;
    }
    const key = keyOf(kind, id);
    if (this.#running.has(key)) {
      this.#again.add(key);
      return;
    }
    const run = (async () => {
      try {
        await handler(id);
      } catch (error) {
        this.#onError(error, kind, id);
      }
    })().finally(() => {
      this.#running.delete(key);
      if (this.#again.delete(key)) this.#run(kind, id);
    });
    this.#running.set(key, run);
  }

  process(kind: WorkKind, handler: WorkHandler): void {
    this.#handlers.set(kind, handler);
    const waiting = this.#waiting.get(kind);
    this.#waiting.delete(kind);
    for (const id of waiting ?? []) this.#run(kind, id);
  }

  /** Jobs scheduled and not yet fired (tests, diagnostics). */
  get scheduled(): number {
    return this.#timers.size;
  }

  /** Resolves when no handler is running (including the runs those runs started). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running.values());
  }

  /** Drops every job not yet fired and waits for the running ones. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers.values()) this.clock.clearTimer(timer.handle);
    this.#timers.clear();
    this.#waiting.clear();
    this.#again.clear();
    await this.idle();
  }
}
