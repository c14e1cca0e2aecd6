import type { TaskStatus } from "./task-status.js";

/** docs/api-reference.md "Events" item 5 and "Limits": retries at about 10 s, 30 s and 60 s. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [10_000, 30_000, 60_000];
/** How long a receiver has to answer 2xx. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** One first try plus one per delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_MS.length + 1;

/** docs/api-reference.md "Events" item 3: only terminal completed and failed push; cancelled and progress never. */
export function pushesOn(status: TaskStatus): boolean {
  return status === "completed" || status === "failed";
}

/** How one delivery attempt ended. */
export type DeliveryAttempt = { status: number } | { timeout: true } | { networkError: string };
export type DeliveryStep = { retryInMs: number } | { done: "delivered" | "failed" };

type Outcome = "delivered" | "failed" | "retry";

/** 2xx delivered; 3xx (redirects are not followed) and 4xx stop at once; 5xx retried. */
function outcomeOf(attempt: DeliveryAttempt): Outcome {
  if (!("status" in attempt)) return "retry";
  const { status } = attempt;
  if (status >= 200 && status < 300) return "delivered";
  if (status >= 500 && status < 600) return "retry";
  return "failed";
}

/**
 * What to do after an attempt. `attemptsMade` counts this attempt too (1 after the first try);
 * timeouts, network errors and 5xx are retried on the schedule, at most three times.
 */
export function nextDeliveryStep(attemptsMade: number, attempt: DeliveryAttempt): DeliveryStep {
  const outcome = outcomeOf(attempt);
  if (outcome !== "retry") return { done: outcome };
  const made = Number.isFinite(attemptsMade) ? Math.max(1, Math.floor(attemptsMade)) : 1;
  const delay = WEBHOOK_RETRY_DELAYS_MS[made - 1];
  return delay === undefined ? { done: "failed" } : { retryInMs: delay };
}
