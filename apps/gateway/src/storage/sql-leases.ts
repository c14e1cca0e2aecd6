import type { SqlConnection, SqlValue } from "./sql-connection.ts";
import type { LeaseGrant, LeaseKey, LeaseKind, LeaseReturn, LeaseRow } from "./store.ts";

// Lease rows and their subject's `reserved` change in one transaction, so `reserved` is their sum.
// Lock order everywhere: lease rows (by owner), then subjects (tokens, then users, each by id);
// instances share only subject rows, so none deadlock.

/** The table of a lease's subject. */
export const TABLE: Record<LeaseKind, "tokens" | "users"> = { token: "tokens", user: "users" };

/** The subject's primary key as its table stores it (tokens have integer ids). */
export const subjectId = (kind: LeaseKind, subject: string): SqlValue =>
  kind === "token" ? Number(subject) : subject;

export const KEY_MATCH = "instance_id = ? AND subject_kind = ? AND subject_id = ?";
export const keyParams = (key: LeaseKey): SqlValue[] => [key.owner, key.kind, key.subject];

/** The lock order of subjects: tokens by id, then users by id. */
export function compareSubjects(
  a: { readonly kind: LeaseKind; readonly subject: string },
  b: { readonly kind: LeaseKind; readonly subject: string },
): number {
  if (a.kind !== b.kind) return a.kind === "token" ? -1 : 1;
  if (a.subject === b.subject) return 0;
  if (a.kind === "token") return Number(a.subject) - Number(b.subject);
  return a.subject < b.subject ? -1 : 1;
}

/** Sorts keys into the lock order above (owners by id within one subject). */
function inLockOrder<T extends LeaseKey>(keys: T[]): T[] {
  return keys.sort(
    (a, b) => compareSubjects(a, b) || (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0),
  );
}

// Thrown inside a transaction to roll back the lease row it opened when no size fitted.
const SHORT = new Error("lease short");
const LOST = new Error("lease lost");

export function takeLease(
  db: SqlConnection,
  key: LeaseKey,
  sizes: readonly number[],
  now: number,
  exists: boolean,
): Promise<LeaseGrant> {
  return db
    .transaction(async (tx): Promise<LeaseGrant> => {
      const params = keyParams(key);
      // The lease row first (lock order); an expected row that is gone was reclaimed.
      if (exists) {
        const touched = await tx.run(`UPDATE leases SET heartbeat_at = ? WHERE ${KEY_MATCH}`, [
          now,
          ...params,
        ]);
        if (touched === 0) throw LOST;
      } else {
        const opened = await tx.run(
          `INSERT INTO leases (instance_id, subject_kind, subject_id, amount, heartbeat_at)
           VALUES (?, ?, ?, 0, ?) ON CONFLICT DO NOTHING`,
          [...params, now],
        );
        // A row this instance did not know it had: its bookkeeping cannot be trusted.
        if (opened === 0) throw LOST;
      }
      const id = subjectId(key.kind, key.subject);
      for (const size of sizes) {
        const took = await tx.run(
          `UPDATE ${TABLE[key.kind]} SET reserved = reserved + ? WHERE id = ? AND quota - used - reserved >= ?`,
          [size, id, size],
        );
        if (took === 0) continue;
        await tx.run(`UPDATE leases SET amount = amount + ? WHERE ${KEY_MATCH}`, [size, ...params]);
        return size;
      }
      throw SHORT;
    })
    .catch((error: unknown) => {
      if (error === SHORT) return "short";
      if (error === LOST) return "lost";
      throw error;
    });
}

export function returnLease(
  db: SqlConnection,
  key: LeaseKey,
  amount: number,
): Promise<LeaseReturn> {
  return db.transaction(async (tx): Promise<LeaseReturn> => {
    const params = keyParams(key);
    const shrunk = await tx.run(
      `UPDATE leases SET amount = amount - ? WHERE ${KEY_MATCH} AND amount >= ?`,
      [amount, ...params, amount],
    );
    if (shrunk === 0) return "lost";
    await tx.run(`UPDATE ${TABLE[key.kind]} SET reserved = reserved - ? WHERE id = ?`, [
      amount,
      subjectId(key.kind, key.subject),
    ]);
    const deleted = await tx.run(`DELETE FROM leases WHERE ${KEY_MATCH} AND amount = 0`, params);
    return deleted > 0 ? "deleted" : "kept";
  });
}

export async function heartbeatLeases(
  db: SqlConnection,
  owner: string,
  now: number,
): Promise<LeaseKey[]> {
  const rows = await db.all(
    "UPDATE leases SET heartbeat_at = ? WHERE instance_id = ? RETURNING instance_id, subject_kind, subject_id",
    [now, owner],
  );
  return rows.map(toKey);
}

export function reclaimLeases(
  db: SqlConnection,
  which: { readonly before: number } | { readonly owner: string },
): Promise<{ leases: number; credits: number }> {
  const [filter, value] =
    "owner" in which ? ["instance_id = ?", which.owner] : ["heartbeat_at < ?", which.before];
  return db.transaction(async (tx) => {
    const found = await tx.all(
      `SELECT instance_id, subject_kind, subject_id FROM leases WHERE ${filter}`,
      [value],
    );
    const keys = inLockOrder(found.map(toKey));
    let leases = 0;
    let credits = 0;
    for (const key of keys) {
      // Filtered again: the owner may have sent a heartbeat since the rows were listed.
      const gone = await tx.all(
        `DELETE FROM leases WHERE ${KEY_MATCH} AND ${filter} RETURNING amount`,
        [...keyParams(key), value],
      );
      const amount = Number(gone[0]?.["amount"] ?? -1);
      if (amount < 0) continue;
      await tx.run(`UPDATE ${TABLE[key.kind]} SET reserved = reserved - ? WHERE id = ?`, [
        amount,
        subjectId(key.kind, key.subject),
      ]);
      leases++;
      credits += amount;
    }
    return { leases, credits };
  });
}

export async function listLeases(db: SqlConnection): Promise<LeaseRow[]> {
  const rows = await db.all(
    "SELECT instance_id, subject_kind, subject_id, amount, heartbeat_at FROM leases",
  );
  return rows.map((row) => ({
    ...toKey(row),
    amount: Number(row["amount"]),
    heartbeatAt: Number(row["heartbeat_at"]),
  }));
}

function toKey(row: Record<string, unknown>): LeaseKey {
  return {
    owner: String(row["instance_id"]),
    kind: row["subject_kind"] === "user" ? "user" : "token",
    subject: String(row["subject_id"]),
  };
}
