import { isTerminalStreamEvent } from "@interlingua/fmt-responses/tables";
import type { Logger } from "../log/logger.ts";
import type { RedisLink } from "../redis/redis-link.ts";
import type { ResponseStore, StoredEvent } from "../storage/response-store.ts";

// The stream events of background responses created with `stream: true` (docs/responses.md):
// each run on this instance records its events (renumbered, continuing what an earlier run of the
// same response recorded) in memory and, flushed every FLUSH_MS and within the bounds, in the
// database; its flushes signal the followers here and, over Redis pub/sub, on every instance.
// The followers themselves are in responses/response-events.ts.

/** Events and bytes kept per response (`responses.stream_events_max`, `..._max_bytes`). */
export interface EventBounds {
  readonly maxEvents: number;
  readonly maxBytes: number;
}

/** How often a recorder writes what it recorded (ms). */
const FLUSH_MS = 50;
/** Events a recorder holds unwritten at most: past it, it writes at once. */
const MAX_UNWRITTEN = 500;
/**
 * How far past the last event recorded a run taken over (its instance died) starts numbering:
 * beyond any event the dead run streamed but had not written, so a client resuming after one of
 * those still gets the new run's events.
 */
export const RERUN_GAP = 2 * MAX_UNWRITTEN;
export type Listener = (event: StoredEvent | undefined) => void;

/** The events of one background response running on this instance. */
export class EventRecorder {
  readonly id: string;
  /** The sequence number of this run's first event (a run taken over continues the numbering). */
  readonly firstSeq: number;
  /** The events recorded (under the bounds), in order: what a follower here replays. */
  readonly kept: StoredEvent[] = [];
  readonly listeners = new Set<Listener>();
  ended = false;
  sawTerminal = false;
  /** What the stream said it dropped: `x-interlingua-warnings` entries, each once. */
  readonly warnings = new Set<string>();
  #next: number;
  #bytes = 0;
  #full = false;
  #pending: StoredEvent[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  readonly #hub: ResponseEvents;

  constructor(hub: ResponseEvents, id: string, firstSeq: number) {
    this.#hub = hub;
    this.id = id;
    this.firstSeq = firstSeq;
    this.#next = firstSeq;
  }

  /** Records one event (renumbered) and hands it to the followers here. */
  push(event: Readonly<Record<string, unknown>>): void {
    if (this.ended) return;
    const seq = this.#next++;
    const data = JSON.stringify({ ...event, sequence_number: seq });
    const stored = { seq, data };
    const terminal = isTerminalStreamEvent(event["type"]);
    if (terminal) this.sawTerminal = true;
    const { maxEvents, maxBytes } = this.#hub.bounds();
    // Past the bounds only the terminal event is kept: a stream resumed there has a gap, which
    // its follower says (docs/responses.md); the followers here get every event live.
    if (terminal || (this.kept.length < maxEvents && this.#bytes + data.length <= maxBytes)) {
      this.kept.push(stored);
      this.#bytes += data.length;
      this.#pending.push(stored);
      // The terminal event is written last, by `end`, after what the stream said it dropped.
      if (this.#pending.length >= MAX_UNWRITTEN) void this.#flush();
      else if (!terminal) this.#timer ??= setTimeout(() => this.#flush(), FLUSH_MS);
    } else if (!this.#full) {
      this.#full = true;
      this.#hub.log.warn(
        { responseId: this.id, events: this.kept.length, bytes: this.#bytes },
        "background response stream past its bounds: later events are not kept for a resume",
      );
    }
    for (const listener of this.listeners) listener(stored);
  }

  /** The next sequence number. */
  next(): number {
    return this.#next;
  }

  #flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#pending;
    this.#pending = [];
    if (batch.length === 0) return this.#writing;
    this.#writing = this.#writing
      .then(() => this.#hub.store().appendEvents(this.id, batch))
      .then(
        () => this.#hub.signal(this.id),
        (error: unknown) =>
          this.#hub.log.error(
            { err: error, responseId: this.id },
            "could not record background response stream events",
          ),
      );
    return this.#writing;
  }

  /** Notes what the stream said it dropped (an `x-interlingua-warnings` value). */
  warn(value: string): void {
    for (const entry of value.split(",")) if (entry.trim() !== "") this.warnings.add(entry.trim());
  }

  /** Writes what is left; the followers here go on from the database. */
  async end(): Promise<void> {
    if (this.warnings.size > 0) {
      await this.#hub
        .store()
        .setStreamWarnings(this.id, [...this.warnings].join(","))
        .catch((error: unknown) =>
          this.#hub.log.error({ err: error, responseId: this.id }, "could not record warnings"),
        );
    }
    await this.#flush();
    this.ended = true;
    for (const listener of this.listeners) listener(undefined);
    this.#hub.forget(this);
    this.#hub.signal(this.id);
  }
}

/** What a message on the Redis channel says: new events of `id`, or (`cancel`) stop running it. */
interface EventsMessage {
  readonly id: string;
  readonly cancel?: boolean;
}

/** The recorders of this instance and the signals between recorders, followers and instances. */
export class ResponseEvents {
  readonly log: Logger;
  readonly #recorders = new Map<string, EventRecorder>();
  readonly #waiters = new Map<string, Set<() => void>>();
  readonly #redis: RedisLink | undefined;
  readonly #channel: string | undefined;
  #store: ResponseStore | undefined;
  #bounds: EventBounds = {
    maxEvents: Number.POSITIVE_INFINITY,
    maxBytes: Number.POSITIVE_INFINITY,
  };
  #onCancel: (id: string) => void = () => {};

  constructor(log: Logger, redis: RedisLink | undefined) {
    this.log = log;
    this.#redis = redis;
    this.#channel = redis?.key("response-events");
  }

  /** Binds the store, the bounds and what a cancel from another instance stops. */
  bind(store: ResponseStore, bounds: EventBounds, onCancel: (id: string) => void): void {
    this.#store = store;
    this.#bounds = bounds;
    this.#onCancel = onCancel;
  }

  /** Listens to the other instances (Redis pub/sub); without it, followers poll. */
  async subscribe(): Promise<void> {
    const redis = this.#redis;
    const channel = this.#channel;
    if (redis === undefined || channel === undefined) return;
    const subscriber = redis.subscriber();
    subscriber.on("message", (from: string, text: string) => {
      if (from !== channel) return;
      let message: Partial<EventsMessage>;
      try {
        message = JSON.parse(text) as Partial<EventsMessage>;
      } catch {
        return;
      }
      if (typeof message.id !== "string") return;
      if (message.cancel === true) this.#onCancel(message.id);
      this.#wake(message.id);
    });
    await subscriber.subscribe(channel);
  }

  store(): ResponseStore {
    if (this.#store === undefined) throw new Error("response events used before bind");
    return this.#store;
  }

  bounds(): EventBounds {
    return this.#bounds;
  }

  /** Starts recording a run of `id`, numbered after what earlier runs recorded. */
  async record(id: string): Promise<EventRecorder> {
    const last = await this.store().lastEventSeq(id);
    const recorder = new EventRecorder(this, id, last < 0 ? 0 : last + 1 + RERUN_GAP);
    this.#recorders.set(id, recorder);
    this.#wake(id);
    return recorder;
  }

  recorder(id: string): EventRecorder | undefined {
    return this.#recorders.get(id);
  }

  forget(recorder: EventRecorder): void {
    if (this.#recorders.get(recorder.id) === recorder) this.#recorders.delete(recorder.id);
  }

  /** New events of `id` (or a new state): followers here and on every other instance look. */
  signal(id: string, cancel = false): void {
    this.#wake(id);
    const redis = this.#redis;
    if (redis === undefined || this.#channel === undefined) return;
    const message: EventsMessage = cancel ? { id, cancel } : { id };
    redis.commands.publish(this.#channel, JSON.stringify(message)).catch((error: unknown) => {
      redis.outage.failed("publish", error);
    });
  }

  /** How many responses have followers waiting here (for tests). */
  waiting(): number {
    return this.#waiters.size;
  }

  #wake(id: string): void {
    const waiting = this.#waiters.get(id);
    if (waiting === undefined) return;
    this.#waiters.delete(id);
    for (const wake of waiting) wake();
  }

  /** Resolves on a signal for `id`, after `ms`, or when `abort` fires. */
  wait(id: string, ms: number, abort: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let waiting = this.#waiters.get(id);
      if (waiting === undefined) {
        waiting = new Set();
        this.#waiters.set(id, waiting);
      }
      const set = waiting;
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0 && this.#waiters.get(id) === set) this.#waiters.delete(id);
        abort.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
      abort.addEventListener("abort", done);
    });
  }
}
