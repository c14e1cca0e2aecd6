import { paymentRequired } from "@interlingua/errors";
import { callbackUrl, checkCallbackUrl, normalizeLanguage } from "@interlingua/tasks";
import type { AuthenticatedToken } from "../auth/token-store.ts";
import { unitUsageRow } from "../billing/unit-usage-row.ts";
import type { Logger } from "../log/logger.ts";
import { currentTraceparent } from "../log/trace-context.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import type { HeldUnits, TaskRecord } from "../storage/task-record.ts";
import type { TaskKind, TaskRow } from "../storage/task-store.ts";
import { holdCredits } from "./task-charge.ts";
import { newTaskId } from "./task-id.ts";
import type { TaskRoute } from "./task-route.ts";

const SHORT_MESSAGES = {
  token: "insufficient quota on this API key for this task",
  user: "insufficient balance on this account for this task",
} as const;

export interface Submission {
  readonly token: AuthenticatedToken;
  readonly requestId: string;
  readonly log: Logger;
  readonly kind: TaskKind;
  /** The model as the client named it. */
  readonly model: string;
  readonly endpoint: TaskRecord["endpoint"];
  readonly route: TaskRoute;
  readonly input: Record<string, unknown>;
  readonly units: HeldUnits;
  readonly estimatedTime: number;
  readonly webhook: string | undefined;
  readonly language: unknown;
  readonly idempotencyKey: string | undefined;
  readonly sourceTaskId?: string;
  /** Hosts that name this service (public_url, Host header): never a callback target. */
  readonly serviceHosts: readonly string[];
}

/**
 * Holds the task's price and inserts it in one transaction (a 402 is thrown when it is not covered), then
 * asks the queue for its first run. A repeated Idempotency-Key answers the first task.
 */
export async function submitTask(
  services: GatewayServices,
  s: Submission,
): Promise<{ task: TaskRow; created: boolean }> {
  const now = services.now();
  const webhookUrl = webhookTarget(services, s);
  const language = normalizeLanguage(s.language);
  const hold = holdCredits(services, s.route.gatewayModel, s.units);
  const record: TaskRecord = {
    job: s.route.job,
    endpoint: s.endpoint,
    gatewayModel: s.route.gatewayModel,
    upstreamModel: s.route.candidate.upstreamModel,
    tokenName: s.token.name,
    requestId: s.requestId,
    units: s.units,
    input: s.input,
    ...traceparentField(),
  };
  const outcome = await services.store.tasks.submit({
    id: newTaskId(),
    userId: s.token.userId,
    tokenId: s.token.id,
    kind: s.kind,
    model: s.model,
    channel: s.route.candidate.channel.name,
    request: record,
    webhookUrl,
    language,
    estimatedTime: s.estimatedTime,
    idempotencyKey: s.idempotencyKey,
    sourceTaskId: s.sourceTaskId,
    createdAt: now,
    nextPollAt: now,
    hold: { credits: hold, onToken: !s.token.unlimited, onUser: !s.token.userUnlimited },
  });
  if (!outcome.ok) {
    const error = paymentRequired(SHORT_MESSAGES[outcome.short]);
    // Like every refused call, a refused submit leaves its usage row (no credits).
    services.accounting?.logUnheld(
      unitUsageRow({
        requestId: s.requestId,
        time: Date.now(),
        userId: s.token.userId,
        tokenId: s.token.id,
        tokenName: s.token.name,
        model: s.model,
        channel: s.route.candidate.channel.name,
        endpoint: s.endpoint,
        credits: 0,
        cost: 0,
        latencyMs: 0,
        status: 402,
        error: error.message,
      }),
    );
    throw error;
  }
  if (outcome.created) {
    s.log.info(
      { task: outcome.task.id, model: s.model, hold, webhook: webhookUrl !== undefined },
      "task submitted",
    );
    // The task is held and stored: a queue that cannot take the job now (Redis away) delays
    // it, the runner's sweep finds the due row; the caller still gets its task id.
    await services.queue.schedule("task", outcome.task.id, now).catch((error: unknown) => {
      s.log.error({ task: outcome.task.id, err: error }, "task not queued; the sweep will run it");
    });
  }
  return { task: outcome.task, created: outcome.created };
}

const traceparentField = (): { traceparent?: string } => {
  const traceparent = currentTraceparent();
  return traceparent === undefined ? {} : { traceparent };
};

/** The callback URL, or undefined when none was given or it breaks the API reference's rules (dropped silently). */
function webhookTarget(services: GatewayServices, s: Submission): string | undefined {
  if (s.webhook === undefined || s.webhook === "") return undefined;
  const url = callbackUrl(s.webhook);
  const check = checkCallbackUrl(url, {
    serviceHosts: s.serviceHosts,
    allowPrivate: services.config.webhooks.allow_private_targets,
  });
  if (check.ok) return url;
  // docs/api-reference.md Events rule 7: the submission stands, no push will be made; only the log says why.
  s.log.info({ reason: check.reason }, "webhook URL refused: this task will not push");
  return undefined;
}
