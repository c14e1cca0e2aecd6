import type { TaskResult, TaskSnapshot } from "@interlingua/tasks";
import type { TaskRow } from "../storage/task-store.ts";

const seconds = (ms: number): number => Math.floor(ms / 1000);

/**
 * A stored task as the tasks package renders it (docs/api-reference.md Task). `cost` and `credits_cost` are
 * what was charged: 0 while the task runs (the hold is not a charge) and after a refund.
 */
export function taskSnapshot(row: TaskRow): TaskSnapshot {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    createdAt: seconds(row.createdAt),
    estimatedTime: row.estimatedTime,
    cost: row.cost,
    creditsCost: row.creditsCost,
    ...(row.completedAt === undefined ? {} : { completedAt: seconds(row.completedAt) }),
    ...(row.result === undefined || row.result === null
      ? {}
      : { result: row.result as TaskResult }),
    ...(row.error === undefined ? {} : { error: row.error }),
  };
}
