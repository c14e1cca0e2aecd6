import type { WorkQueue } from "../queue/work-queue.ts";

/**
 * Jobs not yet done in `queue`, for the queue-depth gauge: BullMQ's counts (`depth()`), the
 * in-process queue's pending timers (`scheduled`), or undefined for a queue that says neither.
 */
export function queueDepth(queue: WorkQueue): Promise<number> | number | undefined {
  const known = queue as WorkQueue & { depth?: () => Promise<number>; scheduled?: number };
  if (typeof known.depth === "function") return known.depth();
  return typeof known.scheduled === "number" ? known.scheduled : undefined;
}
