import { type SqlConnection, type SqlRow, sqlBool, sqlNum } from "./sql-connection.ts";
import { compareSubjects, KEY_MATCH, keyParams, subjectId, TABLE } from "./sql-leases.ts";
import { optJson } from "./sql-optional.ts";
import { insertLogs } from "./sql-usage-logs.ts";
import type {
  BatchOutcome,
  ChargeBatch,
  DeadLetter,
  DeadLetterRow,
  LeaseKey,
  LeaseKind,
} from "./store.ts";

/** One subject's share of a batch: what it is charged, and what each lease gives up for it. */
interface SubjectTotal {
  readonly kind: LeaseKind;
  readonly subject: string;
  used: number;
  /** Consumed parts by lease owner. */
  readonly draws: Map<string, number>;
}

const subjectTotal = (kind: LeaseKind, subject: string): SubjectTotal => ({
  kind,
  subject,
  used: 0,
  draws: new Map(),
});

function draw(total: SubjectTotal, credits: number, owner: string | undefined, consumed: number) {
  total.used += credits;
  if (owner !== undefined && consumed > 0) {
    total.draws.set(owner, (total.draws.get(owner) ?? 0) + consumed);
  }
}

/** Per token and per user, in lock order (a batch holds hundreds of calls on a few subjects). */
function totals(batch: ChargeBatch): SubjectTotal[] {
  const tokens = new Map<number, SubjectTotal>();
  const users = new Map<string, SubjectTotal>();
  for (const c of batch.charges) {
    let token = tokens.get(c.tokenId);
    if (token === undefined) {
      token = subjectTotal("token", String(c.tokenId));
      tokens.set(c.tokenId, token);
    }
    draw(token, c.credits, c.tokenOwner, c.tokenConsumed);
    let user = users.get(c.userId);
    if (user === undefined) {
      user = subjectTotal("user", c.userId);
      users.set(c.userId, user);
    }
    draw(user, c.credits, c.userOwner, c.userConsumed);
  }
  return [...tokens.values(), ...users.values()].sort(compareSubjects);
}

/**
 * The batch id is recorded first, so a retried or already-split batch changes nothing. A
 * reclaimed lease row has already returned its amount: its calls are charged in full, no hold.
 */
export function writeCharges(
  db: SqlConnection,
  batch: ChargeBatch,
  now: number,
): Promise<BatchOutcome> {
  return db.transaction(async (tx): Promise<BatchOutcome> => {
    const fresh = await tx.run(
      "INSERT INTO applied_batches (id, applied_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
      [batch.id, now],
    );
    if (fresh === 0 || (await anyApplied(tx, batch.supersedes ?? []))) {
      return { alreadyApplied: true, lost: [] };
    }
    const lost: LeaseKey[] = [];
    for (const total of totals(batch)) {
      let released = 0;
      for (const owner of [...total.draws.keys()].sort()) {
        const consumed = total.draws.get(owner) ?? 0;
        const key: LeaseKey = { owner, kind: total.kind, subject: total.subject };
        const gave = await tx.run(
          `UPDATE leases SET amount = amount - ? WHERE ${KEY_MATCH} AND amount >= ?`,
          [consumed, ...keyParams(key), consumed],
        );
        if (gave > 0) released += consumed;
        else lost.push(key);
      }
      if (total.used === 0 && released === 0) continue;
      await tx.run(
        `UPDATE ${TABLE[total.kind]} SET used = used + ?, reserved = reserved - ? WHERE id = ?`,
        [total.used, released, subjectId(total.kind, total.subject)],
      );
    }
    await insertLogs(tx, batch.logs);
    for (const letter of batch.deadLetters ?? []) await insertDeadLetter(tx, batch.id, letter, now);
    return { alreadyApplied: false, lost };
  });
}

async function anyApplied(tx: SqlConnection, ids: readonly string[]): Promise<boolean> {
  if (ids.length === 0) return false;
  const rows = await tx.all(
    `SELECT id FROM applied_batches WHERE id IN (${ids.map(() => "?").join(", ")})`,
    ids,
  );
  return rows.length > 0;
}

function insertDeadLetter(tx: SqlConnection, batchId: string, letter: DeadLetter, now: number) {
  return tx.run(
    `INSERT INTO billing_dead_letters (batch_id, request_id, created_at, reason, applied, charge, log)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      batchId,
      letter.requestId,
      now,
      letter.reason,
      sqlBool(letter.applied),
      letter.charge === undefined ? null : JSON.stringify(letter.charge),
      JSON.stringify(letter.log),
    ],
  );
}

const toDeadLetter = (row: SqlRow): DeadLetterRow => ({
  id: sqlNum(row["id"]),
  batchId: String(row["batch_id"]),
  requestId: String(row["request_id"]),
  createdAt: sqlNum(row["created_at"]),
  reason: String(row["reason"]),
  applied: Boolean(row["applied"]),
  charge: optJson(row["charge"]) as DeadLetterRow["charge"],
  log: JSON.parse(String(row["log"])),
});

/** Every dead letter, oldest first. */
export async function listDeadLetters(db: SqlConnection): Promise<DeadLetterRow[]> {
  return (await db.all("SELECT * FROM billing_dead_letters ORDER BY id")).map(toDeadLetter);
}
