import { Queue, Worker } from "bullmq";
import type { WorkHandler, WorkKind, WorkQueue } from "./work-queue.ts";

// The shared driver (`redis_url` set): one BullMQ queue per kind, a job per "look at this row at
// this time" as a delayed job. Every gateway instance runs workers on the same queues, so they
// share the work and each job is taken by one of them. The job id is derived from (kind, id,
// time): scheduling the same look twice, from one instance or two, adds one job.

export interface BullMqWorkQueueOptions {
  /** `redis://` or `rediss://`. */
  readonly url: string;
  /**
   * The Redis key prefix of the queues (default `interlingua`): gateways sharing work use the
   * same one; tests use their own so they never see each other's jobs.
   */
  readonly prefix?: string;
  /** Jobs one instance runs at once, per kind (default 8). */
  readonly concurrency?: number;
  /** How long adding a job may take (ms, default `SCHEDULE_TIMEOUT_MS`). */
  readonly scheduleTimeoutMs?: number;
  /** A handler threw (the job is retried a few times) or a connection failed. */
  readonly onError?: (error: unknown, kind: WorkKind, id: string | undefined) => void;
}

export const DEFAULT_QUEUE_PREFIX = "interlingua";

/**
 * How long scheduling may take (ms): a submit answers promptly even when Redis is down; the row
 * is due in the database, and the runner's sweep takes it when the job could not be added.
 */
export const SCHEDULE_TIMEOUT_MS = 1_000;

/** How long closing the queues and workers may take before their connections are dropped. */
const CLOSE_TIMEOUT_MS = 5_000;

/** Tries of a job whose handler throws; the row stays due either way. */
const JOB_ATTEMPTS = 3;

interface JobData {
  readonly id: string;
}

/**
 * BullMQ refuses `:` in custom ids and all-digit ones: the row id goes in base64url, after the
 * kind and the time (so the id is never all digits).
 */
export const jobIdOf = (kind: WorkKind, id: string, atMs: number): string =>
  `${kind}.${Math.round(atMs)}.${Buffer.from(id).toString("base64url")}`;

export class BullMqWorkQueue implements WorkQueue {
  readonly #connection: { url: string };
  /** The producers' connection: no offline queue, so adding a job fails fast while Redis is away. */
  readonly #producer: { url: string; enableOfflineQueue: false };
  readonly #prefix: string;
  readonly #concurrency: number;
  readonly #scheduleTimeoutMs: number;
  readonly #onError: NonNullable<BullMqWorkQueueOptions["onError"]>;
  readonly #queues = new Map<WorkKind, Queue<JobData>>();
  readonly #workers = new Map<WorkKind, Worker<JobData>>();
  #closed = false;

  constructor(options: BullMqWorkQueueOptions) {
    this.#connection = { url: options.url };
    this.#producer = { url: options.url, enableOfflineQueue: false };
    this.#prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;
    this.#concurrency = options.concurrency ?? 8;
    this.#scheduleTimeoutMs = options.scheduleTimeoutMs ?? SCHEDULE_TIMEOUT_MS;
    this.#onError = options.onError ?? (() => {});
  }

  #queue(kind: WorkKind): Queue<JobData> {
    let queue = this.#queues.get(kind);
    if (queue === undefined) {
      queue = new Queue<JobData>(kind, { connection: this.#producer, prefix: this.#prefix });
      queue.on("error", (error) => this.#onError(error, kind, undefined));
      this.#queues.set(kind, queue);
    }
    return queue;
  }

  async schedule(kind: WorkKind, id: string, atMs: number): Promise<void> {
    if (this.#closed) return;
    // A job whose id exists already (waiting, delayed or running) is not added again.
    const added = this.#queue(kind).add(
      kind,
      { id },
      {
        jobId: jobIdOf(kind, id, atMs),
        delay: Math.max(0, atMs - Date.now()),
        attempts: JOB_ATTEMPTS,
        backoff: { type: "exponential", delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: { age: 24 * 60 * 60 },
      },
    );
    await within(added, this.#scheduleTimeoutMs, "adding a job");
  }

  process(kind: WorkKind, handler: WorkHandler): void {
    if (this.#closed || this.#workers.has(kind)) {
      throw new Error(`work of kind ${kind} is already processed (or the queue is closed)`);
    }
    const worker = new Worker<JobData>(kind, (job) => handler(job.data.id), {
      connection: this.#connection,
      prefix: this.#prefix,
      concurrency: this.#concurrency,
    });
    worker.on("error", (error) => this.#onError(error, kind, undefined));
    worker.on("failed", (job, error) => this.#onError(error, kind, job?.data.id));
    this.#workers.set(kind, worker);
  }

  /** Jobs waiting, delayed or running over the queues this instance opened (metrics). */
  async depth(): Promise<number> {
    let jobs = 0;
    for (const queue of this.#queues.values()) {
      const counts = await within(
        queue.getJobCounts("waiting", "delayed", "active", "prioritized"),
        SCHEDULE_TIMEOUT_MS,
        "counting jobs",
      );
      for (const count of Object.values(counts)) jobs += count;
    }
    return jobs;
  }

  /** Stops taking jobs, lets the running ones finish, then disconnects. */
  async close(): Promise<void> {
    this.#closed = true;
    // Bounded: a connection that never became ready (Redis was down when it opened) must not
    // hold a shutdown; after the bound its connections are dropped without waiting.
    const workers = [...this.#workers.values()];
    const queues = [...this.#queues.values()];
    const closing = Promise.all([
      ...workers.map((worker) => worker.close()),
      ...queues.map((queue) => queue.close()),
    ]);
    await within(closing, CLOSE_TIMEOUT_MS, "closing the queues").catch(() => {
      for (const worker of workers) void worker.close(true).catch(() => undefined);
      for (const queue of queues) void queue.disconnect().catch(() => undefined);
    });
    this.#workers.clear();
    this.#queues.clear();
  }
}

/** `work`, or a rejection after `ms` (the work itself goes on; an add is idempotent by job id). */
async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis: ${what} took over ${ms} ms`)), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
