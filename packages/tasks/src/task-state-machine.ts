import type { TaskStatus } from "./task-status.js";

/**
 * The legal moves. The API reference shows only the states, so this is our choice: a task is queued, then
 * processed, then finishes; it may fail or be cancelled before processing starts; processing ->
 * processing is a progress update. A finished task never changes (no row below lists one).
 */
export const taskTransitions: Readonly<Record<TaskStatus, readonly TaskStatus[]>> = {
  pending: ["processing", "failed", "cancelled"],
  processing: ["processing", "completed", "failed", "cancelled"],
  completed: [],
  failed: [],
  cancelled: [],
};

export function canTransition(from: TaskStatus, to: TaskStatus): boolean {
  return taskTransitions[from].includes(to);
}
