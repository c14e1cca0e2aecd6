import {
  sqlBool as bool,
  sqlNum as num,
  type SqlConnection,
  type SqlRow,
  type SqlValue,
} from "./sql-connection.ts";
import { KEY_MATCH, subjectId, TABLE } from "./sql-leases.ts";
import { optNum, optJson as parsed, optText as text } from "./sql-optional.ts";
import { insertLogs } from "./sql-usage-logs.ts";
import type { LeaseKey, LeaseKind } from "./store.ts";
import type {
  NewDelivery,
  NewTask,
  SubmitOutcome,
  TaskEnd,
  TaskErrorRecord,
  TaskKind,
  TaskProgressPatch,
  TaskRow,
  TaskStatus,
  TaskStore,
} from "./task-store.ts";

// TaskStore on any SqlConnection (issue 13, "Durable, exactly once"). A task's hold is a lease
// row per held side under the pseudo-instance `task:<id>`, so `reserved` stays the sum of the
// lease rows. Its heartbeat is far in the future: no reclaim of stale leases (`heartbeat_at <
// before`) ever takes it, and no instance heartbeats or reclaims an owner named `task:…`.

/** The heartbeat of a task's lease rows: 250,000 years ahead, newer than any reclaim cutoff. */
export const TASK_LEASE_HEARTBEAT = 8e15;

/** The lease owner of a task's hold. */
export const taskLeaseOwner = (taskId: string): string => `task:${taskId}`;

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

const json = (value: unknown): string | null =>
  value === undefined ? null : JSON.stringify(value);

export const toTask = (row: SqlRow): TaskRow => ({
  id: String(row["id"]),
  userId: String(row["user_id"]),
  tokenId: num(row["token_id"]),
  kind: String(row["kind"]) as TaskKind,
  model: String(row["model"]),
  channel: text(row["channel"]),
  status: String(row["status"]) as TaskStatus,
  progress: num(row["progress"]),
  request: parsed(row["request"]),
  upstream: parsed(row["upstream"]),
  result: parsed(row["result"]),
  error: parsed(row["error"]) as TaskErrorRecord | undefined,
  webhookUrl: text(row["webhook_url"]),
  language: text(row["language"]),
  holdCredits: num(row["hold_credits"]),
  creditsCost: num(row["credits_cost"]),
  cost: num(row["cost"]),
  estimatedTime: num(row["estimated_time"]),
  idempotencyKey: text(row["idempotency_key"]),
  sourceTaskId: text(row["source_task_id"]),
  attempts: num(row["attempts"]),
  nextPollAt: num(row["next_poll_at"]),
  createdAt: num(row["created_at"]),
  startedAt: optNum(row["started_at"]),
  completedAt: optNum(row["completed_at"]),
});

// Thrown inside the submit transaction to roll it back.
class Short extends Error {
  readonly side: LeaseKind;
  constructor(side: LeaseKind) {
    super(`task hold short on ${side}`);
    this.side = side;
  }
}
const DUPLICATE = new Error("duplicate idempotency key");

/** The sides a task holds on, in the lock order of sql-leases.ts (token, then user). */
function heldSides(row: {
  readonly tokenId: number;
  readonly userId: string;
  readonly onToken: boolean;
  readonly onUser: boolean;
  readonly taskId: string;
}): LeaseKey[] {
  const owner = taskLeaseOwner(row.taskId);
  const sides: LeaseKey[] = [];
  if (row.onToken) sides.push({ owner, kind: "token", subject: String(row.tokenId) });
  if (row.onUser) sides.push({ owner, kind: "user", subject: row.userId });
  return sides;
}

const leaseParams = (key: LeaseKey): SqlValue[] => [key.owner, key.kind, key.subject];

/** Takes `amount` on one side: the lease row first, then its subject (sql-leases.ts lock order). */
async function hold(tx: SqlConnection, key: LeaseKey, amount: number): Promise<void> {
  await tx.run(
    "INSERT INTO leases (instance_id, subject_kind, subject_id, amount, heartbeat_at) VALUES (?, ?, ?, ?, ?)",
    [...leaseParams(key), amount, TASK_LEASE_HEARTBEAT],
  );
  const took = await tx.run(
    `UPDATE ${TABLE[key.kind]} SET reserved = reserved + ? WHERE id = ? AND quota - used - reserved >= ?`,
    [amount, subjectId(key.kind, key.subject), amount],
  );
  if (took === 0) throw new Short(key.kind);
}

/**
 * Ends one side's hold: its lease row goes, `reserved` shrinks by what the row held and `used`
 * grows by `credits` (0 on a refund). A side that held nothing (unlimited) is only charged.
 */
async function release(
  tx: SqlConnection,
  kind: LeaseKind,
  subject: string,
  owner: string,
  credits: number,
): Promise<void> {
  const gone = await tx.all(`DELETE FROM leases WHERE ${KEY_MATCH} RETURNING amount`, [
    owner,
    kind,
    subject,
  ]);
  const held = num(gone[0]?.["amount"]);
  if (held === 0 && credits === 0) return;
  await tx.run(`UPDATE ${TABLE[kind]} SET used = used + ?, reserved = reserved - ? WHERE id = ?`, [
    credits,
    held,
    subjectId(kind, subject),
  ]);
}

const INSERT_TASK = `INSERT INTO tasks (id, user_id, token_id, kind, model, channel, status, progress,
  request, webhook_url, language, hold_credits, hold_token, hold_user, estimated_time,
  idempotency_key, source_task_id, next_poll_at, created_at)
  VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (user_id, idempotency_key) DO NOTHING RETURNING *`;

/** Each patch field and its column (JSON fields are serialised). */
const PATCH_COLUMNS: readonly (readonly [keyof TaskProgressPatch, string])[] = [
  ["status", "status"],
  ["progress", "progress"],
  ["channel", "channel"],
  ["upstream", "upstream"],
  ["attempts", "attempts"],
  ["nextPollAt", "next_poll_at"],
  ["startedAt", "started_at"],
];

export class SqlTaskStore implements TaskStore {
  readonly #db: SqlConnection;

  constructor(db: SqlConnection) {
    this.#db = db;
  }

  async submit(task: NewTask): Promise<SubmitOutcome> {
    try {
      return await this.#db.transaction(async (tx): Promise<SubmitOutcome> => {
        const existing = await this.#byKey(tx, task.userId, task.idempotencyKey);
        if (existing !== undefined) return { ok: true, task: existing, created: false };
        const amount = Math.max(0, Math.floor(task.hold.credits));
        const onToken = task.hold.onToken && amount > 0;
        const onUser = task.hold.onUser && amount > 0;
        // The task row first: a concurrent submit with the same key waits here on the unique
        // index until the first commits, then finds its key taken (and never reaches the hold,
        // which the first may have left too small for a second).
        const rows = await tx.all(INSERT_TASK, [
          task.id,
          task.userId,
          task.tokenId,
          task.kind,
          task.model,
          task.channel ?? null,
          JSON.stringify(task.request ?? null),
          task.webhookUrl ?? null,
          task.language ?? null,
          amount,
          bool(onToken),
          bool(onUser),
          task.estimatedTime,
          task.idempotencyKey ?? null,
          task.sourceTaskId ?? null,
          task.nextPollAt,
          task.createdAt,
        ]);
        if (rows[0] === undefined) throw DUPLICATE;
        const sides = heldSides({ ...task, onToken, onUser, taskId: task.id });
        for (const side of sides) await hold(tx, side, amount);
        return { ok: true, task: toTask(rows[0]), created: true };
      });
    } catch (error) {
      if (error instanceof Short) return { ok: false, short: error.side };
      if (error !== DUPLICATE && !isUniqueViolation(error)) throw error;
      const first = await this.#byKey(this.#db, task.userId, task.idempotencyKey);
      if (first === undefined) throw error;
      return { ok: true, task: first, created: false };
    }
  }

  async #byKey(
    db: SqlConnection,
    userId: string,
    key: string | undefined,
  ): Promise<TaskRow | undefined> {
    if (key === undefined) return undefined;
    const rows = await db.all("SELECT * FROM tasks WHERE user_id = ? AND idempotency_key = ?", [
      userId,
      key,
    ]);
    return rows[0] === undefined ? undefined : toTask(rows[0]);
  }

  async get(id: string): Promise<TaskRow | undefined> {
    const rows = await this.#db.all("SELECT * FROM tasks WHERE id = ?", [id]);
    return rows[0] === undefined ? undefined : toTask(rows[0]);
  }

  async listByUser(
    userId: string,
    page: { offset: number; limit: number },
  ): Promise<{ items: TaskRow[]; total: number }> {
    // Served by the (user_id, created_at) index.
    const rows = await this.#db.all(
      "SELECT * FROM tasks WHERE user_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?",
      [userId, page.limit, page.offset],
    );
    const count = await this.#db.all("SELECT COUNT(*) AS n FROM tasks WHERE user_id = ?", [userId]);
    return { items: rows.map(toTask), total: Number(count[0]?.["n"] ?? 0) };
  }

  async countOpen(): Promise<{ pending: number; processing: number }> {
    // Served by the (status, next_poll_at) index.
    const rows = await this.#db.all(
      "SELECT status, COUNT(*) AS n FROM tasks WHERE status IN ('pending', 'processing') GROUP BY status",
    );
    const open = { pending: 0, processing: 0 };
    for (const row of rows) {
      if (row["status"] === "pending" || row["status"] === "processing") {
        open[row["status"]] = Number(row["n"]);
      }
    }
    return open;
  }

  async claimDue(now: number, claimUntil: number, limit: number): Promise<TaskRow[]> {
    // The claim re-checks `claimed_until` on the row it updates: of two pollers picking the same
    // rows at once, the second finds them claimed (Postgres re-evaluates the WHERE after the
    // first commits; SQLite runs one statement at a time).
    const rows = await this.#db.all(
      `UPDATE tasks SET claimed_until = ?
       WHERE id IN (SELECT id FROM tasks
         WHERE status IN ('pending', 'processing') AND next_poll_at <= ? AND claimed_until <= ?
         ORDER BY next_poll_at, created_at, id LIMIT ?)
       AND status IN ('pending', 'processing') AND claimed_until <= ?
       RETURNING *`,
      [claimUntil, now, now, limit, now],
    );
    return rows
      .map(toTask)
      .sort((a, b) => a.nextPollAt - b.nextPollAt || a.createdAt - b.createdAt || cmp(a.id, b.id));
  }

  async update(id: string, expected: TaskStatus, patch: TaskProgressPatch): Promise<boolean> {
    // A terminal task never changes again, and nothing goes back to pending.
    if (TERMINAL.has(expected)) return false;
    if (patch.status === "pending" && expected !== "pending") return false;
    const sets: string[] = [];
    const params: SqlValue[] = [];
    for (const [field, column] of PATCH_COLUMNS) {
      const value = patch[field];
      if (value === undefined) continue;
      sets.push(`${column} = ?`);
      params.push(field === "upstream" ? json(value) : (value as SqlValue));
    }
    // A new poll time ends the current claim: the poller is done with this round.
    if (patch.nextPollAt !== undefined) sets.push("claimed_until = 0");
    if (sets.length === 0) sets.push("status = status");
    const changed = await this.#db.run(
      `UPDATE tasks SET ${sets.join(", ")} WHERE id = ? AND status = ?`,
      [...params, id, expected],
    );
    return changed > 0;
  }

  finish(id: string, expected: TaskStatus, end: TaskEnd, delivery?: NewDelivery): Promise<boolean> {
    // finish(…, "completed", …) must not match a task already completed: that would settle twice.
    if (TERMINAL.has(expected)) return Promise.resolve(false);
    // The end's time is its usage row's (the caller's clock): completed_at, the push's created_at.
    const at = end.log.time;
    return this.#db.transaction(async (tx) => {
      const before = await tx.all("SELECT hold_credits FROM tasks WHERE id = ? AND status = ?", [
        id,
        expected,
      ]);
      if (before[0] === undefined) return false;
      const charge = charged(end, num(before[0]["hold_credits"]));
      const ended = await tx.all(
        `UPDATE tasks SET status = ?, progress = ${end.status === "completed" ? "?" : "progress"},
           result = ?, error = ?, credits_cost = ?, cost = ?, completed_at = ?, claimed_until = 0
         WHERE id = ? AND status = ?
         RETURNING user_id, token_id`,
        [
          end.status,
          ...(end.status === "completed" ? [end.progress] : []),
          end.status === "completed" ? json(end.result) : null,
          end.status === "completed" ? null : json(end.error),
          charge.credits,
          charge.cost,
          at,
          id,
          expected,
        ],
      );
      const row = ended[0];
      // Another poller ended it first (between the read and here): nothing more to do.
      if (row === undefined) return false;
      const owner = taskLeaseOwner(id);
      await release(tx, "token", String(row["token_id"]), owner, charge.credits);
      await release(tx, "user", String(row["user_id"]), owner, charge.credits);
      await insertLogs(tx, [{ ...end.log, ...charge }]);
      if (delivery !== undefined) {
        await tx.run(
          `INSERT INTO webhook_deliveries (id, task_id, user_id, url, body, status, attempts,
             next_attempt_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)`,
          [
            delivery.id,
            id,
            String(row["user_id"]),
            delivery.url,
            delivery.body,
            delivery.nextAttemptAt,
            at,
            at,
          ],
        );
      }
      return true;
    });
  }
}

/**
 * What an end charges: a completion its credits, never more than the hold (all the submit made
 * sure the user had; the cost shrinks in proportion), a failure or cancellation nothing.
 */
function charged(end: TaskEnd, holdCredits: number): { credits: number; cost: number } {
  if (end.status !== "completed") return { credits: 0, cost: 0 };
  const credits = Math.min(holdCredits, Math.max(0, Math.round(end.credits)));
  if (credits === end.credits) return { credits, cost: end.cost };
  return { credits, cost: end.credits > 0 ? (end.cost * credits) / end.credits : 0 };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A unique index refused an insert (Postgres 23505, SQLite "UNIQUE constraint failed"). */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const e = error as { code?: unknown; message?: unknown };
  return e.code === "23505" || /UNIQUE constraint failed/.test(String(e.message ?? ""));
}
