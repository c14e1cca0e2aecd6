import { WEBHOOK_TIMEOUT_MS } from "@interlingua/tasks";
import type { GatewayConfig } from "../config/config-schema.ts";
import type { Logger } from "../log/logger.ts";
import { JobRuns } from "../queue/job-runs.ts";
import type { WorkQueue } from "../queue/work-queue.ts";
import { taskRecord } from "../storage/task-record.ts";
import type { TaskRow } from "../storage/task-store.ts";
import type { WebhookStore } from "../storage/webhook-store.ts";
import { type DeliveryContext, deliverWebhook } from "./deliver-webhook.ts";
import { type LookupAll, systemLookup } from "./resolve-target.ts";
import { serviceHosts } from "./service-hosts.ts";

// Runs the "webhook" jobs of this instance. At start it re-schedules every pending delivery
// (a restart loses no push), and a slow sweep picks up rows whose job was lost or whose worker
// died mid-attempt (its claim ran out). A second job for a row only fails its claim, so overlap
// costs one query.

/** What the dispatcher needs of GatewayServices. */
export interface WebhookServices {
  readonly store: {
    readonly webhooks: WebhookStore;
    /** With tracing on, a push's span links to its task's submitting request. */
    readonly tasks?: { get(id: string): Promise<TaskRow | undefined> };
  };
  readonly queue: WorkQueue;
  readonly config: Pick<GatewayConfig, "public_url" | "listen"> & {
    readonly webhooks: Pick<GatewayConfig["webhooks"], "allow_private_targets">;
    readonly tracing?: { readonly enabled: boolean };
  };
  readonly log: Logger;
  readonly now: () => number;
  /** The gateway's own base URL (public_url, or where it listens): never a push target. */
  readonly publicUrl?: () => string;
}

export interface WebhookDispatcherOptions {
  /** Receiver timeout of one attempt; WEBHOOK_TIMEOUT_MS (10 s) by default. */
  timeoutMs?: number;
  /** Host name resolution (tests point names at loopback). */
  lookup?: LookupAll;
  /** How often due rows are swept; 0 turns the sweep off (tests call sweep()). */
  sweepIntervalMs?: number;
}

export const DEFAULT_SWEEP_INTERVAL_MS = 30_000;
/** Rows re-scheduled per start or sweep; the next sweep takes the rest. */
const SWEEP_BATCH = 500;

/** Asks for an attempt of a delivery at `atMs` (the runtime calls it when a task finishes). */
export function scheduleDelivery(
  services: { readonly queue: WorkQueue },
  deliveryId: string,
  atMs: number,
): Promise<void> {
  return services.queue.schedule("webhook", deliveryId, atMs);
}

/** How a push finds its task's submitting span, when tracing is on. */
function traceLookup(services: WebhookServices): Pick<DeliveryContext, "traceOf"> {
  const tasks = services.store.tasks;
  if (services.config.tracing?.enabled !== true || tasks === undefined) return {};
  return {
    traceOf: async (taskId) => {
      const task = await tasks.get(taskId);
      return task === undefined ? undefined : taskRecord(task).traceparent;
    },
  };
}

export class WebhookDispatcher {
  readonly #services: WebhookServices;
  readonly #context: DeliveryContext;
  readonly #sweepIntervalMs: number;
  readonly #runs = new JobRuns();

  constructor(services: WebhookServices, options: WebhookDispatcherOptions = {}) {
    this.#services = services;
    this.#sweepIntervalMs = options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS;
    this.#context = {
      webhooks: services.store.webhooks,
      queue: services.queue,
      now: services.now,
      log: services.log,
      timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
      early: new Map(),
      ...traceLookup(services),
      policy: {
        serviceHosts: serviceHosts(services.config, services.publicUrl?.()),
        allowPrivate: services.config.webhooks.allow_private_targets,
        lookup: options.lookup ?? systemLookup,
      },
    };
  }

  /** Registers the handler and re-schedules every pending delivery at its own time. */
  async start(): Promise<void> {
    this.#services.queue.process("webhook", (id) => this.#run(id));
    // A far "now" lists every pending row, not only those due already; a row another instance
    // is sending just fails its claim here.
    await this.#schedule(Number.MAX_SAFE_INTEGER);
    if (this.#sweepIntervalMs > 0) {
      this.#runs.every(
        this.#sweepIntervalMs,
        () => this.sweep(),
        (error) => this.#services.log.error({ err: error }, "webhook sweep failed"),
      );
    }
  }

  /** Schedules the pending rows that are due now and unclaimed; returns how many. */
  sweep(): Promise<number> {
    const now = this.#services.now();
    // A row still due and unclaimed lost its job, or a dead worker holds it (BullMQ frees a job
    // only when its lock runs out): a look at the sweep's time is a new job id, not the old one.
    return this.#schedule(now, now);
  }

  /** Stops sweeping and waits for attempts in progress (each bounded by the timeout). */
  close(): Promise<void> {
    return this.#runs.close();
  }

  async #schedule(dueBy: number, at?: number): Promise<number> {
    const rows = await this.#services.store.webhooks.due(dueBy, SWEEP_BATCH);
    for (const row of rows) {
      await scheduleDelivery(this.#services, row.id, Math.max(row.nextAttemptAt, at ?? 0));
    }
    return rows.length;
  }

  #run(id: string): Promise<void> {
    return this.#runs.run(
      () => deliverWebhook(this.#context, id),
      // The claim runs out and the sweep tries again; the error is the store's, not the push's.
      (error) => this.#services.log.error({ delivery: id, err: error }, "webhook attempt crashed"),
    );
  }
}
