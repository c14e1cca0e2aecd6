import {
  type FailureCode,
  failureError,
  isTerminal,
  renderTask,
  type TaskResult,
} from "@interlingua/tasks";
import { SpanKind } from "@opentelemetry/api";
import { linkTo } from "../log/trace-context.ts";
import { inSpan } from "../log/tracing.ts";
import { JobRuns } from "../queue/job-runs.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { type TaskRecord, taskRecord, upstreamHandle } from "../storage/task-record.ts";
import type { NewDelivery, TaskKind, TaskRow, TaskStatus } from "../storage/task-store.ts";
import { scheduleDelivery } from "../webhooks/webhook-dispatcher.ts";
import type { Job, JobContext, MediaBytes, Step } from "./jobs/job.ts";
import { JOBS } from "./jobs/jobs.ts";
import { discardResults, storeResults } from "./store-results.ts";
import { settledCharge } from "./task-charge.ts";
import { newDeliveryId } from "./task-id.ts";
import { channelForTask } from "./task-route.ts";
import { taskSnapshot } from "./task-snapshot.ts";
import { taskUsageRow } from "./task-usage.ts";
import { bounded } from "./upstream-call.ts";

// The background half of a task (queue kind "task"): start the upstream job, poll it, store the
// results, settle or refund. The database row is the truth and every change is a CAS on its
// status: a runner whose CAS fails has lost a race (another instance, a restart's duplicate
// job) and stops without a trace. Money and the webhook row move only inside `finish`.

export interface TaskRunnerOptions {
  /** Bounds of the poll interval, which is a tenth of the task's estimated time. */
  readonly minPollMs: number;
  readonly maxPollMs: number;
  /** Base of the backoff after a failed upstream call (doubled per attempt, capped). */
  readonly backoffMs: number;
  /** Upstream failures in a row before the task fails. */
  readonly maxAttempts: number;
  /** A task not finished this long after its creation fails with upstream_timeout. */
  readonly maxAgeMs: Readonly<Record<TaskKind, number>>;
  /**
   * How long a started step owns a task before another runner may take it over. The lease is
   * renewed (every third of it) while the step runs, so it can be short: a runner that died
   * loses its tasks to another within about this plus a sweep interval.
   */
  readonly stepLeaseMs: number;
  /** How long result files are served: videos 24 h (the API reference), images the same (docs/tasks.md). */
  readonly resultLifetimeMs: Readonly<Record<"video" | "image", number>>;
  /** How often due tasks whose job was lost are looked for; 0 turns the sweep off. */
  readonly sweepIntervalMs: number;
}

const HOUR = 3_600_000;

export const DEFAULT_TASK_RUNNER_OPTIONS: TaskRunnerOptions = {
  minPollMs: 2_000,
  maxPollMs: 15_000,
  backoffMs: 2_000,
  maxAttempts: 8,
  maxAgeMs: { video: 2 * HOUR, image: HOUR / 4 },
  stepLeaseMs: 20_000,
  resultLifetimeMs: { video: 24 * HOUR, image: 24 * HOUR },
  sweepIntervalMs: 10_000,
};

/** Rows re-scheduled per start or sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 1_000;

export class TaskRunner {
  readonly #services: GatewayServices;
  readonly #options: TaskRunnerOptions;
  readonly #runs = new JobRuns();

  constructor(services: GatewayServices, options: Partial<TaskRunnerOptions> = {}) {
    this.#services = services;
    this.#options = { ...DEFAULT_TASK_RUNNER_OPTIONS, ...options };
  }

  /** Registers the handler and schedules every unfinished task again (a restart loses none). */
  async start(): Promise<void> {
    this.#services.queue.process("task", (id) => this.run(id));
    // A far "now" lists every unfinished task; claimUntil 0 leaves them unclaimed.
    const open = await this.#services.store.tasks.claimDue(Number.MAX_SAFE_INTEGER, 0, SWEEP_BATCH);
    for (const row of open) await this.#schedule(row.id, row.nextPollAt);
    if (open.length > 0)
      this.#services.log.info({ tasks: open.length }, "unfinished tasks resumed");
    if (this.#options.sweepIntervalMs > 0) {
      this.#runs.every(
        this.#options.sweepIntervalMs,
        () => this.sweep(),
        (error) => this.#services.log.warn({ err: error }, "task sweep failed"),
      );
    }
  }

  /** Schedules tasks that are due and unclaimed (their job was lost); returns how many. */
  async sweep(): Promise<number> {
    const now = this.#services.now();
    const rows = await this.#services.store.tasks.claimDue(
      now,
      now + this.#options.sweepIntervalMs,
      SWEEP_BATCH,
    );
    for (const row of rows) await this.#schedule(row.id, now);
    return rows.length;
  }

  close(): Promise<void> {
    return this.#runs.close();
  }

  /** One look at a task: the queue's handler. */
  run(id: string): Promise<void> {
    return this.#runs.run(
      () => this.#step(id),
      // The row is still due: the sweep (or a restart) brings it back.
      (error) => this.#services.log.error({ task: id, err: error }, "task step crashed"),
    );
  }

  #schedule(id: string, at: number): Promise<void> {
    return this.#services.queue.schedule("task", id, at);
  }

  async #step(id: string): Promise<void> {
    const row = await this.#services.store.tasks.get(id);
    if (row === undefined || isTerminal(row.status)) return;
    if (!this.#services.config.tracing.enabled) return this.#stepRow(id, row);
    // A span of its own (no request is around), linked to the request that submitted the task.
    return inSpan(
      "task.step",
      { "interlingua.task_id": id, "interlingua.task_kind": row.kind },
      () => this.#stepRow(id, row),
      SpanKind.CONSUMER,
      true,
      linkTo(taskRecord(row).traceparent),
    );
  }

  async #stepRow(id: string, row: TaskRow): Promise<void> {
    const { store, now } = { store: this.#services.store, now: this.#services.now() };
    if (row.nextPollAt > now) {
      await this.#schedule(id, row.nextPollAt);
      return;
    }
    const record = taskRecord(row);
    if (now - row.createdAt > this.#options.maxAgeMs[row.kind]) {
      const seconds = Math.round(this.#options.maxAgeMs[row.kind] / 1000);
      await this.#fail(row, record, "upstream_timeout", `no result after ${seconds} s`);
      return;
    }
    const candidate = channelForTask(this.#services, record.gatewayModel, row.channel, record.job);
    if (candidate === undefined) {
      await this.#fail(row, record, "upstream_unavailable", `no channel serves ${row.model}`);
      return;
    }
    // Take the step: pending -> processing is the CAS only one runner wins; a processing task
    // is leased by moving its next poll past this step, so a sweep elsewhere leaves it alone.
    const lease = now + this.#options.stepLeaseMs;
    const taken =
      row.status === "pending"
        ? await store.tasks.update(id, "pending", {
            status: "processing",
            progress: 1,
            startedAt: now,
            nextPollAt: lease,
          })
        : await store.tasks.update(id, "processing", { nextPollAt: lease });
    if (!taken) return;
    const current: TaskRow = {
      ...row,
      status: "processing",
      nextPollAt: lease,
      ...(row.status === "pending" ? { progress: 1, startedAt: now } : {}),
    };
    const handle = upstreamHandle(current);
    const job = JOBS[record.job];
    const context: JobContext = {
      services: this.#services,
      row: current,
      record,
      handle,
      candidate,
    };
    // A Veo operation recorded by an earlier step (this runner's, or a dead one's) is polled,
    // never started again; synchronous image calls have nothing to resume and start again.
    const renewal = this.#renewLease(id);
    let step: Step;
    try {
      step =
        handle.videos !== undefined
          ? await job.collect(context)
          : handle.operation !== undefined
            ? await job.poll(context)
            : await job.start(context);
    } finally {
      await renewal.stop();
    }
    await this.#apply(context, job, step);
  }

  // While a step runs, its lease is pushed forward every third of it: a live runner keeps the
  // task however long the upstream takes, a dead one loses it within a lease.
  #renewLease(id: string): { stop(): Promise<void> } {
    const leaseMs = this.#options.stepLeaseMs;
    let pending: Promise<unknown> = Promise.resolve();
    const timer = setInterval(
      () => {
        pending = this.#services.store.tasks
          .update(id, "processing", { nextPollAt: this.#services.now() + leaseMs })
          .catch((error: unknown) =>
            this.#services.log.warn({ task: id, err: error }, "renewing a task step lease failed"),
          );
      },
      Math.max(1, Math.floor(leaseMs / 3)),
    );
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await pending;
      },
    };
  }

  async #apply(context: JobContext, job: Job, step: Step): Promise<void> {
    const { row, record } = context;
    const tasks = this.#services.store.tasks;
    const now = this.#services.now();
    switch (step.kind) {
      case "wait": {
        const next = now + this.#pollInterval(row);
        const moved = await tasks.update(row.id, "processing", {
          upstream: step.upstream,
          progress: Math.max(row.progress, Math.min(99, Math.round(step.progress ?? row.progress))),
          attempts: 0,
          nextPollAt: next,
          ...(step.channel === undefined ? {} : { channel: step.channel }),
        });
        if (moved) await this.#schedule(row.id, next);
        return;
      }
      case "ready": {
        // The handle is kept before the download: a crash after it downloads again, never
        // re-polls an operation the upstream may have forgotten.
        const kept = await tasks.update(row.id, "processing", {
          upstream: step.upstream,
          progress: Math.max(row.progress, 95),
        });
        if (!kept) return;
        const next: JobContext = { ...context, handle: step.upstream };
        const collected = await job.collect(next);
        if (collected.kind === "ready" || collected.kind === "wait") {
          await this.#fail(row, record, "invalid_upstream_result", "results not collectable");
          return;
        }
        await this.#apply(next, job, collected);
        return;
      }
      case "results": {
        if (step.usage !== undefined) {
          const kept = await tasks.update(row.id, "processing", {
            upstream: { ...upstreamHandle(row), imageUsage: step.usage },
          });
          if (!kept) return;
        }
        const failed = await this.#complete(row, record, job.output, step.media);
        // A download that broke off is collected again later, like any upstream hiccup.
        if (failed !== undefined) await this.#apply(context, job, failed);
        return;
      }
      case "failed":
        await this.#fail(row, record, step.code, step.message);
        return;
      case "retry": {
        const attempts = row.attempts + 1;
        if (attempts >= this.#options.maxAttempts) {
          await this.#fail(row, record, "upstream_unavailable", step.message);
          return;
        }
        const backoff = Math.min(
          this.#options.maxPollMs * 4,
          this.#options.backoffMs * 2 ** (attempts - 1),
        );
        this.#services.log.info(
          { task: row.id, attempts, retryInMs: backoff, error: step.message },
          "task upstream call failed; retrying",
        );
        const moved = await tasks.update(row.id, "processing", {
          attempts,
          nextPollAt: now + backoff,
        });
        if (moved) await this.#schedule(row.id, now + backoff);
        return;
      }
    }
  }

  #pollInterval(row: TaskRow): number {
    const { minPollMs, maxPollMs } = this.#options;
    return Math.min(maxPollMs, Math.max(minPollMs, (row.estimatedTime * 1000) / 10));
  }

  async #complete(
    row: TaskRow,
    record: TaskRecord,
    output: "video" | "image",
    media: readonly MediaBytes[],
  ): Promise<Step | undefined> {
    const services = this.#services;
    const saved = await storeResults(
      services,
      row,
      output,
      media,
      this.#options.resultLifetimeMs[output],
    );
    if (!saved.ok) {
      if (saved.transient) return { kind: "retry", message: saved.message };
      await this.#fail(row, record, "invalid_upstream_result", saved.message);
      return undefined;
    }
    const now = services.now();
    const entry = { url: [...saved.stored.urls], expires_at: saved.stored.expiresAt };
    const result: TaskResult = output === "video" ? { videos: [entry] } : { images: [entry] };
    const charge = settledCharge(
      services,
      record.gatewayModel,
      record.units,
      media.length,
      row.holdCredits,
    );
    const finished: TaskRow = {
      ...row,
      status: "completed",
      progress: 100,
      result,
      cost: charge.cost,
      creditsCost: charge.credits,
      completedAt: now,
    };
    const delivery = this.#delivery(finished, now);
    const done = await services.store.tasks.finish(
      row.id,
      "processing",
      {
        status: "completed",
        result,
        progress: 100,
        credits: charge.credits,
        cost: charge.cost,
        log: taskUsageRow(row, record, now, charge),
      },
      delivery,
    );
    if (!done) {
      // Another runner finished it: these copies are nobody's.
      await discardResults(services, saved.stored.keys);
      return undefined;
    }
    services.log.info(
      { task: row.id, credits: charge.credits, files: saved.stored.keys.length },
      "task completed",
    );
    if (delivery !== undefined) await scheduleDelivery(services, delivery.id, now);
    return undefined;
  }

  async #fail(
    row: TaskRow,
    record: TaskRecord,
    code: FailureCode,
    upstreamMessage?: string,
  ): Promise<void> {
    const services = this.#services;
    const now = services.now();
    const error = failureError(
      code,
      upstreamMessage === undefined ? undefined : bounded(upstreamMessage),
    );
    const finished: TaskRow = {
      ...row,
      status: "failed",
      error,
      completedAt: now,
      cost: 0,
      creditsCost: 0,
    };
    const delivery = this.#delivery(finished, now);
    const done = await services.store.tasks.finish(
      row.id,
      row.status as TaskStatus,
      {
        status: "failed",
        error,
        log: taskUsageRow(row, record, now, { failure: code, error: error.message }),
      },
      delivery,
    );
    if (!done) return;
    services.log.info({ task: row.id, code, error: error.message }, "task failed; hold refunded");
    if (delivery !== undefined) await scheduleDelivery(services, delivery.id, now);
  }

  /** The push owed for a terminal task, its body fixed now (language applied). */
  #delivery(finished: TaskRow, now: number): NewDelivery | undefined {
    if (finished.webhookUrl === undefined) return undefined;
    const body = renderTask(taskSnapshot(finished), {
      webhook: true,
      ...(finished.language === undefined ? {} : { language: finished.language }),
    });
    return {
      id: newDeliveryId(),
      url: finished.webhookUrl,
      body: JSON.stringify(body),
      nextAttemptAt: now,
    };
  }
}
