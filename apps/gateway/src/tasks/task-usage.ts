import type { FailureCode } from "@interlingua/tasks";
import { unitUsageRow } from "../billing/unit-usage-row.ts";
import type { UsageLogInput } from "../storage/store.ts";
import type { TaskRecord } from "../storage/task-record.ts";
import type { TaskRow } from "../storage/task-store.ts";

/** The HTTP-like status a failed task's usage row records (the caller never saw an HTTP error). */
const FAILURE_STATUS: Record<FailureCode, number> = {
  generation_failed: 500,
  content_policy_violation: 400,
  upstream_timeout: 504,
  upstream_unavailable: 502,
  invalid_upstream_result: 502,
  source_fetch_failed: 400,
  cancelled: 499,
};

/** The usage row of a task's settlement (credits > 0) or refund (credits 0, with the error). */
export function taskUsageRow(
  row: TaskRow,
  record: TaskRecord,
  now: number,
  end: { credits: number; cost: number } | { failure: FailureCode; error: string },
): UsageLogInput {
  const failed = "failure" in end;
  return unitUsageRow({
    requestId: record.requestId,
    time: now,
    userId: row.userId,
    tokenId: row.tokenId,
    tokenName: record.tokenName,
    model: row.model,
    channel: row.channel,
    endpoint: record.endpoint,
    credits: failed ? 0 : end.credits,
    cost: failed ? 0 : end.cost,
    latencyMs: Math.max(0, now - row.createdAt),
    status: failed ? FAILURE_STATUS[end.failure] : 200,
    ...(failed ? { error: end.error } : {}),
  });
}
