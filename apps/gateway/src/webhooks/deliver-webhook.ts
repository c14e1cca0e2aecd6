import { type DeliveryAttempt, nextDeliveryStep } from "@interlingua/tasks";
import { SpanKind } from "@opentelemetry/api";
import type { Logger } from "../log/logger.ts";
import { linkTo } from "../log/trace-context.ts";
import { inSpan } from "../log/tracing.ts";
import type { WorkQueue } from "../queue/work-queue.ts";
import type { AttemptOutcome, DeliveryRow, WebhookStore } from "../storage/webhook-store.ts";
import { resolveTarget, type TargetPolicy } from "./resolve-target.ts";
import { sendWebhook } from "./send-webhook.ts";
import { signWebhook } from "./sign-webhook.ts";

// The work handler of queue kind "webhook": one attempt of one push. The row is the truth (the
// job only says "look at it now"): claim it, send once, record the outcome with the policy of
// @interlingua/tasks and schedule the retry. A lost or duplicated job costs a look, never a push.

export interface DeliveryContext {
  readonly webhooks: WebhookStore;
  readonly queue: WorkQueue;
  readonly now: () => number;
  readonly log: Logger;
  readonly policy: TargetPolicy;
  /** The receiver timeout of one attempt (DNS, connect and answer). */
  readonly timeoutMs: number;
  /** Rows whose job fired early, and the time they were re-scheduled for (see below). */
  readonly early: Map<string, number>;
  /**
   * Tracing on: each attempt is a span linked to the request that submitted the task, found
   * through this (the submitting span's `traceparent`).
   */
  readonly traceOf?: (taskId: string) => Promise<string | undefined>;
}

/**
 * How long a claim outlives the attempt's own timeout (which bounds the attempt: its signal
 * aborts it), so no other worker sends meanwhile; short, so a push whose instance died is sent by
 * another soon after.
 */
const CLAIM_MARGIN_MS = 5_000;

/** The fields of an outcome that describe the attempt. */
function attemptFields(attempt: DeliveryAttempt): { lastStatus?: number; lastError?: string } {
  if ("status" in attempt) return { lastStatus: attempt.status };
  if ("timeout" in attempt) return { lastError: "timeout" };
  return { lastError: attempt.networkError };
}

/** Rejects when the signal aborts first (a DNS lookup cannot be cancelled, only outrun). */
function beforeAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error("timeout"));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Resolves, signs and sends one attempt; a refused target is reported, not sent. */
async function attempt(
  ctx: DeliveryContext,
  row: DeliveryRow,
): Promise<DeliveryAttempt | { refused: string }> {
  const signal = AbortSignal.timeout(ctx.timeoutMs);
  let target: Awaited<ReturnType<typeof resolveTarget>>;
  try {
    target = await beforeAbort(resolveTarget(row.url, ctx.policy), signal);
  } catch {
    return { timeout: true };
  }
  if (target.kind === "refused") return { refused: target.reason };
  if (target.kind === "unresolved") return { networkError: target.error };
  const secret = await ctx.webhooks.secret(row.userId);
  const headers = signWebhook(secret, { id: row.id, timestampMs: ctx.now(), body: row.body });
  return sendWebhook({
    url: target.url,
    addresses: target.addresses,
    headers,
    body: row.body,
    signal,
    timeoutMs: ctx.timeoutMs,
  });
}

/** What a row gets after this attempt, and when to look again (retries only). */
function outcomeOf(
  ctx: DeliveryContext,
  row: DeliveryRow,
  result: DeliveryAttempt | { refused: string },
): AttemptOutcome {
  if ("refused" in result) return { status: "dropped", lastError: result.refused };
  const step = nextDeliveryStep(row.attempts + 1, result);
  const fields = attemptFields(result);
  if ("retryInMs" in step) return { retryAt: ctx.now() + step.retryInMs, ...fields };
  return { status: step.done, ...fields };
}

export async function deliverWebhook(ctx: DeliveryContext, id: string): Promise<void> {
  const now = ctx.now();
  const row = await ctx.webhooks.claim(id, now, now + ctx.timeoutMs + CLAIM_MARGIN_MS);
  if (row === undefined) {
    // Not ours to send now. A job that fired before the row's time (the queue's clock and ours
    // differ) would otherwise wait for the sweep: look again at the row's own time, once, so a
    // queue clock running ahead cannot spin it.
    const current = await ctx.webhooks.get(id);
    if (current?.status !== "pending" || current.nextAttemptAt <= now) return;
    if (ctx.early.get(id) === current.nextAttemptAt) return;
    ctx.early.set(id, current.nextAttemptAt);
    await ctx.queue.schedule("webhook", id, current.nextAttemptAt);
    return;
  }
  ctx.early.delete(id);
  const traceOf = ctx.traceOf;
  const result =
    traceOf === undefined
      ? await attempt(ctx, row)
      : await inSpan(
          "webhook.deliver",
          { "interlingua.task_id": row.taskId, "interlingua.delivery_id": id },
          () => attempt(ctx, row),
          SpanKind.CLIENT,
          true,
          linkTo(await traceOf(row.taskId).catch(() => undefined)),
        );
  const outcome = outcomeOf(ctx, row, result);
  const recorded = await ctx.webhooks.record(id, row.attempts, outcome, ctx.now());
  // The URL, headers and secret stay out of the log: the task and the outcome say enough.
  const entry = { delivery: id, task: row.taskId, attempt: row.attempts + 1, ...outcome };
  if (!recorded) {
    ctx.log.warn(entry, "webhook attempt not recorded: the delivery changed meanwhile");
    return;
  }
  if ("retryAt" in outcome) {
    await ctx.queue.schedule("webhook", id, outcome.retryAt);
    ctx.log.info(entry, "webhook attempt failed; retry scheduled");
  } else if (outcome.status === "delivered") {
    ctx.log.info(entry, "webhook delivered");
  } else {
    ctx.log.warn(entry, `webhook ${outcome.status}`);
  }
}
