import type { Logger } from "../log/logger.ts";
import type { RedisOutage } from "../redis/redis-outage.ts";
import { BullMqWorkQueue } from "./bullmq-work-queue.ts";
import { MemoryWorkQueue } from "./memory-work-queue.ts";
import type { WorkClock } from "./work-clock.ts";
import type { WorkKind, WorkQueue } from "./work-queue.ts";

export interface OpenWorkQueueOptions {
  /** In-process driver only: time and timers (tests pass a ManualClock). */
  readonly clock?: WorkClock;
  /** BullMQ driver only: the Redis key prefix (tests use their own). */
  readonly prefix?: string;
  /** BullMQ driver only: jobs run at once per kind. */
  readonly concurrency?: number;
  readonly log?: Logger;
  /** BullMQ driver only: connection failures count toward the Redis outage (one warning each). */
  readonly outage?: RedisOutage | undefined;
}

/** BullMQ on `redis_url` when it is set (shared by every instance), otherwise in process. */
export function openWorkQueue(
  config: { readonly redis_url?: string | undefined },
  options: OpenWorkQueueOptions = {},
): WorkQueue {
  const log = options.log;
  const outage = options.outage;
  // A job's failure is logged; a connection's (no job) is the Redis outage's, said once.
  const onError = (error: unknown, kind: WorkKind, id: string | undefined) => {
    if (id === undefined && outage !== undefined) outage.failed("queue", error);
    else log?.error({ err: error, kind, id }, "background work failed");
  };
  if (config.redis_url !== undefined) {
    return new BullMqWorkQueue({
      url: config.redis_url,
      onError,
      ...(options.prefix === undefined ? {} : { prefix: options.prefix }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
    });
  }
  return new MemoryWorkQueue({
    onError,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
}
