import { failureError, localizeMessage } from "./failure-messages.js";
import { normalizeLanguage } from "./language.js";
import type { TaskError, TaskResource, TaskResult } from "./task-resource.js";
import { isTerminal, type TaskStatus } from "./task-status.js";

/** What the gateway keeps about a task, in its own terms (times in Unix seconds). */
export interface TaskSnapshot {
  id: string;
  status: TaskStatus;
  progress: number;
  createdAt: number;
  completedAt?: number;
  estimatedTime: number;
  cost: number;
  creditsCost: number;
  result?: TaskResult;
  error?: TaskError;
}

export interface RenderTaskOptions {
  /** The caller's raw `language`; normalised here, unsupported values keep the original text. */
  language?: string;
  /** Webhook bodies carry `error.param`, a string ("" when no field is to blame); GET bodies do not. */
  webhook?: boolean;
}

// Integers within the safe range: the resource's integer fields must survive JSON exactly.
const wholeSeconds = (n: number) =>
  Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), Number.MAX_SAFE_INTEGER) : 0;
const nonNegative = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
const percent = (n: number) => (Number.isFinite(n) ? Math.min(100, Math.max(0, Math.round(n))) : 0);

/**
 * A snapshot -> the API reference's Task resource. Each state-tied field appears exactly in its states, so the
 * output always passes `taskResourceSchema`: a finished snapshot missing its data is rendered with
 * safe stand-ins (an empty result, a generic failure, completion at creation) rather than broken.
 */
export function renderTask(task: TaskSnapshot, options: RenderTaskOptions = {}): TaskResource {
  const created = wholeSeconds(task.createdAt);
  const finished = isTerminal(task.status);
  const completed = Math.max(created, wholeSeconds(task.completedAt ?? created));
  // Built in the API reference's field order, so logged and pushed bodies read like the table.
  return {
    id: task.id,
    status: task.status,
    cost: nonNegative(task.cost),
    credits_cost: nonNegative(task.creditsCost),
    progress: task.status === "completed" ? 100 : percent(task.progress),
    ...(task.status === "completed" ? { result: task.result ?? {} } : {}),
    created,
    ...(finished ? { completed } : {}),
    estimated_time: wholeSeconds(task.estimatedTime),
    ...(finished ? { actual_time: completed - created } : {}),
    ...(task.status === "failed" ? { error: renderError(task.error, options) } : {}),
  };
}

function renderError(error: TaskError | undefined, options: RenderTaskOptions): TaskError {
  const e = error ?? failureError("generation_failed");
  const message = localizeMessage(e, normalizeLanguage(options.language));
  // The resource's code is an integer or a string; a stray fractional number becomes text.
  const code =
    typeof e.code === "number" && !Number.isSafeInteger(e.code) ? String(e.code) : e.code;
  const base = { code, message, type: e.type || "server_error" };
  // docs/api-reference.md: webhook failure bodies carry `param` as a string (the field concerned, or "").
  return options.webhook ? { ...base, param: e.param ?? "" } : base;
}
