import type { UsageLogInput } from "./store.ts";

// The durable side of asynchronous generation (issue 13). Every state change is a
// compare-and-swap on `status` (UPDATE … WHERE id = ? AND status = ?), and the money and the
// webhook row of a terminal change are written in the same transaction, so settle, refund and
// push happen exactly once however many pollers race.

export type TaskStatus = "pending" | "processing" | "completed" | "failed" | "cancelled";
export type TaskKind = "video" | "image";

/** What a task's error holds (docs/api-reference.md Task.error; `param` is pushed to webhooks). */
export interface TaskErrorRecord {
  readonly code: number | string;
  readonly message: string;
  readonly type: string;
  readonly param?: string | null;
}

export interface TaskRow {
  readonly id: string;
  readonly userId: string;
  readonly tokenId: number;
  readonly kind: TaskKind;
  /** The model as the client named it (an `-ext` alias stays an alias). */
  readonly model: string;
  readonly channel: string | undefined;
  readonly status: TaskStatus;
  readonly progress: number;
  /** The validated submit body (tasks package output), JSON. */
  readonly request: unknown;
  /** The upstream's handle (e.g. `{operation: "models/…/operations/…"}`), JSON. */
  readonly upstream: unknown;
  /** docs/api-reference.md Task.result, only when completed. */
  readonly result: unknown;
  readonly error: TaskErrorRecord | undefined;
  /** The callback URL (base + `/callback`), already normalised; undefined = no push. */
  readonly webhookUrl: string | undefined;
  readonly language: string | undefined;
  /** Credits held on submit (refunded, or settled to `creditsCost`, exactly once). */
  readonly holdCredits: number;
  readonly creditsCost: number;
  /** `creditsCost` in the billing unit. */
  readonly cost: number;
  /** Seconds. */
  readonly estimatedTime: number;
  readonly idempotencyKey: string | undefined;
  readonly sourceTaskId: string | undefined;
  /** Upstream poll failures in a row. */
  readonly attempts: number;
  /** Unix ms: when the task is next due for a poll. */
  readonly nextPollAt: number;
  readonly createdAt: number;
  readonly startedAt: number | undefined;
  readonly completedAt: number | undefined;
}

export interface NewTask {
  readonly id: string;
  readonly userId: string;
  readonly tokenId: number;
  readonly kind: TaskKind;
  readonly model: string;
  readonly channel?: string | undefined;
  readonly request: unknown;
  readonly webhookUrl?: string | undefined;
  readonly language?: string | undefined;
  readonly estimatedTime: number;
  readonly idempotencyKey?: string | undefined;
  readonly sourceTaskId?: string | undefined;
  readonly createdAt: number;
  readonly nextPollAt: number;
  /** The most the task may cost, held on the token and/or user (an unlimited side holds nothing). */
  readonly hold: {
    readonly credits: number;
    readonly onToken: boolean;
    readonly onUser: boolean;
  };
}

export type SubmitOutcome =
  | { readonly ok: true; readonly task: TaskRow; readonly created: boolean }
  | { readonly ok: false; readonly short: "token" | "user" };

/** A change that keeps the task in progress (pending -> processing, progress, next poll time). */
export interface TaskProgressPatch {
  readonly status?: "pending" | "processing";
  readonly progress?: number;
  readonly channel?: string;
  readonly upstream?: unknown;
  readonly attempts?: number;
  readonly nextPollAt?: number;
  readonly startedAt?: number;
}

/** The webhook push owed for a terminal change, inserted in the same transaction. */
export interface NewDelivery {
  readonly id: string;
  readonly url: string;
  /** The JSON body to send, fixed now (language applied). */
  readonly body: string;
  readonly nextAttemptAt: number;
}

export type TaskEnd =
  | {
      readonly status: "completed";
      readonly result: unknown;
      readonly progress: 100;
      /** The real charge: at most the hold; settled once. */
      readonly credits: number;
      readonly cost: number;
      readonly log: UsageLogInput;
    }
  | {
      readonly status: "failed" | "cancelled";
      readonly error: TaskErrorRecord | undefined;
      /** The hold is given back in full; the usage row records the refund. */
      readonly log: UsageLogInput;
    };

export interface TaskStore {
  /**
   * One transaction: an existing task with the same (user, idempotency key) is returned as it is
   * (`created: false`, nothing held); otherwise the hold is taken as lease rows of `task:<id>`
   * (short when the token or user cannot cover it: nothing written) and the task inserted.
   */
  submit(task: NewTask): Promise<SubmitOutcome>;
  get(id: string): Promise<TaskRow | undefined>;
  /**
   * Non-terminal tasks due for a poll (next_poll_at <= now and not claimed by another poller
   * until later), oldest first; each is claimed until `claimUntil` so two instances rarely poll
   * the same task (correctness comes from the CAS, not from the claim).
   */
  claimDue(now: number, claimUntil: number, limit: number): Promise<TaskRow[]>;
  /** CAS on `expected`; false when the task had moved on (nothing changed). */
  update(id: string, expected: TaskStatus, patch: TaskProgressPatch): Promise<boolean>;
  /**
   * CAS on `expected` to a terminal state, with (same transaction) the settlement or refund of the
   * hold, the usage row, and the webhook delivery row when one is owed. False when the task had
   * moved on: nothing changed, nothing charged, nothing pushed.
   */
  finish(id: string, expected: TaskStatus, end: TaskEnd, delivery?: NewDelivery): Promise<boolean>;
  /** A user's tasks, newest first, and how many there are (the `/api/task/self` listing). */
  listByUser?(
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<{ items: TaskRow[]; total: number }>;
  /** Tasks not finished yet, by status (the task queue's depth, for metrics). */
  countOpen?(): Promise<{ pending: number; processing: number }>;
}
