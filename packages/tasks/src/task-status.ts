import * as z from "zod/mini";

/** docs/api-reference.md "States and transitions": the five task states. */
export const taskStatuses = ["pending", "processing", "completed", "failed", "cancelled"] as const;
export type TaskStatus = (typeof taskStatuses)[number];
export const taskStatusSchema = z.enum(taskStatuses);

/** What a task produces; it picks `result.images`, `result.videos` or `result.audios`. */
export const taskKinds = ["video", "image", "audio"] as const;
export type TaskKind = (typeof taskKinds)[number];

const TERMINAL: Record<TaskStatus, boolean> = {
  pending: false,
  processing: false,
  completed: true,
  failed: true,
  cancelled: true,
};

/** completed, failed and cancelled never change again; the API reference calls them "finished". */
export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL[status];
}

export function isTaskStatus(value: unknown): value is TaskStatus {
  return typeof value === "string" && (taskStatuses as readonly string[]).includes(value);
}
