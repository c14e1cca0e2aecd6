import type { StoredItem } from "@interlingua/fmt-responses";
import type {
  NewStoredResponse,
  ResponseStore,
  StoredEntry,
  StoredEvent,
  StoredResponseEnd,
  StoredResponseRow,
  StoredStatus,
} from "./response-store.ts";
import { OPEN_STATUSES } from "./response-store.ts";
import { sqlNum as num, type SqlConnection, type SqlRow, sqlBool } from "./sql-connection.ts";
import { optText as text } from "./sql-optional.ts";

// The `stored_responses` and `stored_response_items` tables (migration 8) on either driver.

const STATUSES: readonly StoredStatus[] = [
  "queued",
  "in_progress",
  "completed",
  "incomplete",
  "failed",
  "cancelled",
];

const toRow = (row: SqlRow): StoredResponseRow => ({
  id: String(row["id"]),
  userId: String(row["user_id"]),
  previousId: text(row["previous_id"]),
  status: STATUSES.find((s) => s === row["status"]) ?? "failed",
  body: JSON.parse(String(row["body"])) as Record<string, unknown>,
  bytes: num(row["bytes"]),
  background: row["background_request"] !== null && row["background_request"] !== undefined,
  streamed: Boolean(row["streamed"]),
  streamWarnings: text(row["stream_warnings"]),
  createdAt: num(row["created_at"]),
  updatedAt: num(row["updated_at"]),
  expiresAt: num(row["expires_at"]),
});

const toEntry = (row: SqlRow): StoredEntry => ({
  item: JSON.parse(String(row["body"])) as StoredItem,
  origin: text(row["origin"]),
});

const marks = (count: number) => Array.from({ length: count }, () => "?").join(", ");
const OPEN = `status IN (${OPEN_STATUSES.map((s) => `'${s}'`).join(", ")})`;

async function insertItems(
  tx: SqlConnection,
  responseId: string,
  userId: string,
  items: readonly StoredEntry[],
  first: number,
  output: boolean,
): Promise<void> {
  // A few hundred rows per statement keeps under both drivers' parameter limits.
  for (let at = 0; at < items.length; at += 100) {
    const chunk = items.slice(at, at + 100);
    const params = chunk.flatMap((entry, i) => [
      responseId,
      first + at + i,
      userId,
      entry.item.id,
      sqlBool(output),
      entry.origin ?? null,
      JSON.stringify(entry.item),
    ]);
    await tx.run(
      `INSERT INTO stored_response_items (response_id, position, user_id, item_id, output, origin, body)
       VALUES ${chunk.map(() => "(?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
      params,
    );
  }
}

export class SqlResponseStore implements ResponseStore {
  readonly #db: SqlConnection;

  constructor(db: SqlConnection) {
    this.#db = db;
  }

  async begin(response: NewStoredResponse, now: number): Promise<void> {
    const body = JSON.stringify(response.body);
    const bytes =
      body.length +
      response.inputItems.reduce((sum, entry) => sum + JSON.stringify(entry.item).length, 0);
    await this.#db.transaction(async (tx) => {
      await tx.run(
        `INSERT INTO stored_responses
           (id, user_id, previous_id, status, body, bytes, background_request, streamed, created_at, updated_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          response.id,
          response.userId,
          response.previousId ?? null,
          response.status,
          body,
          bytes,
          response.backgroundRequest === undefined
            ? null
            : JSON.stringify(response.backgroundRequest),
          sqlBool(response.streamed === true),
          response.createdAt,
          now,
          response.expiresAt,
        ],
      );
      await insertItems(tx, response.id, response.userId, response.inputItems, 0, false);
    });
  }

  async finish(id: string, end: StoredResponseEnd, now: number): Promise<boolean> {
    const body = JSON.stringify(end.body);
    const added =
      body.length + end.outputItems.reduce((sum, item) => sum + JSON.stringify(item).length, 0);
    return this.#db.transaction(async (tx) => {
      const rows = await tx.all(
        `UPDATE stored_responses SET status = ?, body = ?, bytes = bytes + ?, updated_at = ?
         WHERE id = ? AND ${OPEN} RETURNING user_id`,
        [end.status, body, added, now, id],
      );
      const owner = rows[0];
      if (owner === undefined) return false;
      const count = await tx.all(
        "SELECT COUNT(*) AS n FROM stored_response_items WHERE response_id = ?",
        [id],
      );
      await insertItems(
        tx,
        id,
        String(owner["user_id"]),
        end.outputItems.map((item) => ({ item, origin: end.origin })),
        num(count[0]?.["n"]),
        true,
      );
      return true;
    });
  }

  async transition(
    id: string,
    userId: string,
    from: readonly StoredStatus[],
    status: StoredStatus,
    body: Record<string, unknown>,
    now: number,
  ): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE stored_responses SET status = ?, body = ?, updated_at = ?
       WHERE id = ? AND user_id = ? AND status IN (${marks(from.length)})`,
      [status, JSON.stringify(body), now, id, userId, ...from],
    );
    return changed > 0;
  }

  async claim(
    id: string,
    now: number,
    until: number,
    body: (row: StoredResponseRow) => Record<string, unknown>,
  ): Promise<{ row: StoredResponseRow; request: unknown } | undefined> {
    return this.#db.transaction(async (tx) => {
      const rows = await tx.all(
        `SELECT * FROM stored_responses WHERE id = ? AND background_request IS NOT NULL
           AND (status = 'queued' OR (status = 'in_progress' AND claimed_until < ?))`,
        [id, now],
      );
      const found = rows[0];
      if (found === undefined) return undefined;
      const row = toRow(found);
      const next = body(row);
      // The CAS: a second runner reading the same row changes nothing here.
      const changed = await tx.run(
        `UPDATE stored_responses SET status = 'in_progress', body = ?, claimed_until = ?, updated_at = ?
         WHERE id = ? AND status = ? AND COALESCE(claimed_until, 0) = ?`,
        [JSON.stringify(next), until, now, id, row.status, num(found["claimed_until"])],
      );
      if (changed === 0) return undefined;
      return {
        row: { ...row, status: "in_progress", body: next },
        request: JSON.parse(String(found["background_request"])),
      };
    });
  }

  async renewClaim(id: string, from: number, until: number, now: number): Promise<boolean> {
    const changed = await this.#db.run(
      `UPDATE stored_responses SET claimed_until = ?, updated_at = ?
       WHERE id = ? AND status = 'in_progress' AND claimed_until = ?`,
      [until, now, id, from],
    );
    return changed > 0;
  }

  async holdsClaim(id: string, until: number): Promise<boolean> {
    const rows = await this.#db.all(
      `SELECT 1 AS held FROM stored_responses
       WHERE id = ? AND status = 'in_progress' AND claimed_until = ?`,
      [id, until],
    );
    return rows.length > 0;
  }

  async openBackground(limit: number): Promise<{ id: string; claimedUntil: number }[]> {
    const rows = await this.#db.all(
      `SELECT id, claimed_until FROM stored_responses
       WHERE background_request IS NOT NULL AND ${OPEN} ORDER BY created_at LIMIT ?`,
      [limit],
    );
    return rows.map((row) => ({ id: String(row["id"]), claimedUntil: num(row["claimed_until"]) }));
  }

  async listByUser(
    userId: string,
    now: number,
    page: { offset: number; limit: number },
  ): Promise<{ items: StoredResponseRow[]; total: number }> {
    const rows = await this.#db.all(
      `SELECT * FROM stored_responses WHERE user_id = ? AND expires_at > ?
       ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [userId, now, page.limit, page.offset],
    );
    const count = await this.#db.all(
      "SELECT COUNT(*) AS n FROM stored_responses WHERE user_id = ? AND expires_at > ?",
      [userId, now],
    );
    return { items: rows.map(toRow), total: Number(count[0]?.["n"] ?? 0) };
  }

  async get(id: string, userId: string, now: number): Promise<StoredResponseRow | undefined> {
    const rows = await this.#db.all(
      "SELECT * FROM stored_responses WHERE id = ? AND user_id = ? AND expires_at > ?",
      [id, userId, now],
    );
    return rows[0] === undefined ? undefined : toRow(rows[0]);
  }

  async items(id: string, output: boolean): Promise<StoredEntry[]> {
    const rows = await this.#db.all(
      "SELECT origin, body FROM stored_response_items WHERE response_id = ? AND output = ? ORDER BY position",
      [id, sqlBool(output)],
    );
    return rows.map(toEntry);
  }

  async findItems(
    userId: string,
    itemIds: readonly string[],
    now: number,
  ): Promise<Map<string, StoredEntry>> {
    const found = new Map<string, StoredEntry>();
    const wanted = [...new Set(itemIds)];
    for (let at = 0; at < wanted.length; at += 100) {
      const chunk = wanted.slice(at, at + 100);
      const rows = await this.#db.all(
        `SELECT i.item_id, i.origin, i.body FROM stored_response_items i
           JOIN stored_responses r ON r.id = i.response_id
         WHERE i.user_id = ? AND i.item_id IN (${marks(chunk.length)}) AND r.expires_at > ?`,
        [userId, ...chunk, now],
      );
      for (const row of rows) {
        found.set(String(row["item_id"]), toEntry(row));
      }
    }
    return found;
  }

  async appendEvents(id: string, events: readonly StoredEvent[]): Promise<void> {
    for (let at = 0; at < events.length; at += 100) {
      const chunk = events.slice(at, at + 100);
      // Only while the response exists: a run still going elsewhere leaves nothing behind a
      // DELETE (or an expiry sweep) of its response.
      await this.#db.run(
        `INSERT INTO stored_response_events (response_id, seq, body)
         SELECT ?, column1, column2 FROM (VALUES ${chunk.map(() => "(CAST(? AS INTEGER), CAST(? AS TEXT))").join(", ")}) AS v
         WHERE EXISTS (SELECT 1 FROM stored_responses WHERE id = ?)`,
        [id, ...chunk.flatMap((event) => [event.seq, event.data]), id],
      );
    }
  }

  async events(id: string, after: number, limit: number): Promise<StoredEvent[]> {
    const rows = await this.#db.all(
      `SELECT seq, body FROM stored_response_events WHERE response_id = ? AND seq > ?
       ORDER BY seq LIMIT ?`,
      [id, after, limit],
    );
    return rows.map((row) => ({ seq: num(row["seq"]), data: String(row["body"]) }));
  }

  async setStreamWarnings(id: string, warnings: string): Promise<void> {
    await this.#db.run("UPDATE stored_responses SET stream_warnings = ? WHERE id = ?", [
      warnings,
      id,
    ]);
  }

  async lastEventSeq(id: string): Promise<number> {
    const rows = await this.#db.all(
      "SELECT MAX(seq) AS n FROM stored_response_events WHERE response_id = ?",
      [id],
    );
    const last = rows[0]?.["n"];
    return last === null || last === undefined ? -1 : num(last);
  }

  async delete(id: string, userId: string): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const gone = await tx.run("DELETE FROM stored_responses WHERE id = ? AND user_id = ?", [
        id,
        userId,
      ]);
      if (gone === 0) return false;
      await tx.run("DELETE FROM stored_response_items WHERE response_id = ?", [id]);
      await tx.run("DELETE FROM stored_response_events WHERE response_id = ?", [id]);
      return true;
    });
  }

  async sweep(now: number, limit: number): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const rows = await tx.all(
        `DELETE FROM stored_responses WHERE id IN
           (SELECT id FROM stored_responses WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)
         RETURNING id`,
        [now, limit],
      );
      const ids = rows.map((row) => String(row["id"]));
      if (ids.length > 0) {
        await tx.run(
          `DELETE FROM stored_response_items WHERE response_id IN (${marks(ids.length)})`,
          ids,
        );
        await tx.run(
          `DELETE FROM stored_response_events WHERE response_id IN (${marks(ids.length)})`,
          ids,
        );
      }
      return ids.length;
    });
  }
}
