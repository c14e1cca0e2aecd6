// The webhook pushes still owed (rows written by TaskStore.finish) and each user's signing
// secret, in the database (both drivers), so a restart loses no push.

export type DeliveryStatus = "pending" | "delivered" | "failed" | "dropped";

export interface DeliveryRow {
  readonly id: string;
  readonly taskId: string;
  readonly userId: string;
  readonly url: string;
  readonly body: string;
  readonly status: DeliveryStatus;
  /** Attempts made so far. */
  readonly attempts: number;
  /** Unix ms. */
  readonly nextAttemptAt: number;
  readonly lastStatus: number | undefined;
  readonly lastError: string | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What one attempt changes: another try at `nextAttemptAt`, or a final status. */
export type AttemptOutcome =
  | { readonly retryAt: number; readonly lastStatus?: number; readonly lastError?: string }
  | {
      readonly status: "delivered" | "failed" | "dropped";
      readonly lastStatus?: number;
      readonly lastError?: string;
    };

export interface WebhookStore {
  get(id: string): Promise<DeliveryRow | undefined>;
  /** The deliveries of these tasks (at most one each), for the `/api/task/self` listing. */
  forTasks?(taskIds: readonly string[]): Promise<DeliveryRow[]>;
  /**
   * Claims a pending delivery for one attempt: CAS on (status pending, attempts = expected
   * attempts, due at `now`), setting claimed_until. Undefined when another worker has it or it
   * is not due.
   */
  claim(id: string, now: number, claimUntil: number): Promise<DeliveryRow | undefined>;
  /** Pending deliveries due at `now` and not claimed, oldest first (the in-process scheduler and restarts). */
  due(now: number, limit: number): Promise<DeliveryRow[]>;
  /** Records an attempt (attempts + 1) of a claimed delivery; CAS on its attempt count. */
  record(
    id: string,
    attemptsBefore: number,
    outcome: AttemptOutcome,
    now: number,
  ): Promise<boolean>;
  /** The user's signing secret (`whsec_…`), created on first use. */
  secret(userId: string): Promise<string>;
  /** Replaces the user's secret with a new one and returns it. */
  rotateSecret(userId: string): Promise<string>;
}
