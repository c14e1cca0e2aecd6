import { randomBytes } from "node:crypto";
import { sqlNum as num, type SqlConnection, type SqlRow } from "./sql-connection.ts";
import { optNum, optText } from "./sql-optional.ts";
import type { AttemptOutcome, DeliveryRow, DeliveryStatus, WebhookStore } from "./webhook-store.ts";

// WebhookStore on any SqlConnection: the pushes TaskStore.finish left owed, claimed and recorded
// by compare-and-swap so two workers never send the same attempt, and each user's signing secret.

/** A Standard Webhooks secret: `whsec_` and base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

export const toDelivery = (row: SqlRow): DeliveryRow => ({
  id: String(row["id"]),
  taskId: String(row["task_id"]),
  userId: String(row["user_id"]),
  url: String(row["url"]),
  body: String(row["body"]),
  status: String(row["status"]) as DeliveryStatus,
  attempts: num(row["attempts"]),
  nextAttemptAt: num(row["next_attempt_at"]),
  lastStatus: optNum(row["last_status"]),
  lastError: optText(row["last_error"]),
  createdAt: num(row["created_at"]),
  updatedAt: num(row["updated_at"]),
});

export class SqlWebhookStore implements WebhookStore {
  readonly #db: SqlConnection;
  readonly #now: () => number;

  constructor(db: SqlConnection, now: () => number = Date.now) {
    this.#db = db;
    this.#now = now;
  }

  async get(id: string): Promise<DeliveryRow | undefined> {
    const rows = await this.#db.all("SELECT * FROM webhook_deliveries WHERE id = ?", [id]);
    return rows[0] === undefined ? undefined : toDelivery(rows[0]);
  }

  async forTasks(taskIds: readonly string[]): Promise<DeliveryRow[]> {
    if (taskIds.length === 0) return [];
    const marks = taskIds.map(() => "?").join(", ");
    const rows = await this.#db.all(
      `SELECT * FROM webhook_deliveries WHERE task_id IN (${marks})`,
      [...taskIds],
    );
    return rows.map(toDelivery);
  }

  async claim(id: string, now: number, claimUntil: number): Promise<DeliveryRow | undefined> {
    const rows = await this.#db.all(
      `UPDATE webhook_deliveries SET claimed_until = ?
       WHERE id = ? AND status = 'pending' AND next_attempt_at <= ? AND claimed_until <= ?
       RETURNING *`,
      [claimUntil, id, now, now],
    );
    return rows[0] === undefined ? undefined : toDelivery(rows[0]);
  }

  async due(now: number, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.#db.all(
      `SELECT * FROM webhook_deliveries
       WHERE status = 'pending' AND next_attempt_at <= ? AND claimed_until <= ?
       ORDER BY next_attempt_at, created_at, id LIMIT ?`,
      [now, now, limit],
    );
    return rows.map(toDelivery);
  }

  async record(
    id: string,
    attemptsBefore: number,
    outcome: AttemptOutcome,
    now: number,
  ): Promise<boolean> {
    const retry = "retryAt" in outcome;
    // The claim ends with the attempt: a retry is due at its own time, whoever picks it up.
    const changed = await this.#db.run(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, status = ?, next_attempt_at = ?,
         last_status = ?, last_error = ?, updated_at = ?, claimed_until = 0
       WHERE id = ? AND status = 'pending' AND attempts = ?`,
      [
        retry ? "pending" : outcome.status,
        retry ? outcome.retryAt : now,
        outcome.lastStatus ?? null,
        outcome.lastError ?? null,
        now,
        id,
        attemptsBefore,
      ],
    );
    return changed > 0;
  }

  async secret(userId: string): Promise<string> {
    // Two first uses at once: one insert wins, both read the winner's secret.
    await this.#db.run(
      "INSERT INTO webhook_secrets (user_id, secret, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
      [userId, newWebhookSecret(), this.#now()],
    );
    const rows = await this.#db.all("SELECT secret FROM webhook_secrets WHERE user_id = ?", [
      userId,
    ]);
    return String(rows[0]?.["secret"]);
  }

  async rotateSecret(userId: string): Promise<string> {
    const rows = await this.#db.all(
      `INSERT INTO webhook_secrets (user_id, secret, created_at) VALUES (?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at
       RETURNING secret`,
      [userId, newWebhookSecret(), this.#now()],
    );
    return String(rows[0]?.["secret"]);
  }
}
