import type { FileRecord, FileRecords } from "../files/file-store.ts";
import { sqlNum as num, type SqlConnection, type SqlRow } from "./sql-connection.ts";
import { optText as text } from "./sql-optional.ts";

// The `files` table (migration 5) on either driver: what every instance reads to serve, expire
// and sweep the bytes in the file store.

const PURPOSES: readonly FileRecord["purpose"][] = ["upload", "task-result"];

const toRecord = (row: SqlRow): FileRecord => ({
  key: String(row["key"]),
  userId: text(row["user_id"]),
  purpose: PURPOSES.find((p) => p === row["purpose"]) ?? "upload",
  filename: text(row["filename"]),
  contentType: String(row["content_type"]),
  bytes: num(row["bytes"]),
  createdAt: num(row["created_at"]),
  expiresAt: num(row["expires_at"]),
});

export class SqlFileRecords implements FileRecords {
  readonly #db: SqlConnection;

  constructor(db: SqlConnection) {
    this.#db = db;
  }

  async insert(record: FileRecord): Promise<void> {
    await this.#db.run(
      `INSERT INTO files (key, user_id, purpose, filename, content_type, bytes, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        record.key,
        record.userId ?? null,
        record.purpose,
        record.filename ?? null,
        record.contentType,
        record.bytes,
        record.createdAt,
        record.expiresAt,
      ],
    );
  }

  async get(key: string): Promise<FileRecord | undefined> {
    const rows = await this.#db.all("SELECT * FROM files WHERE key = ?", [key]);
    return rows[0] === undefined ? undefined : toRecord(rows[0]);
  }

  /**
   * One statement selects and deletes, so two sweepers (two instances) never both take a row:
   * on Postgres the second waits on the first's row locks and then finds those rows gone.
   */
  async takeExpired(now: number, limit: number): Promise<FileRecord[]> {
    const rows = await this.#db.all(
      `DELETE FROM files WHERE key IN
         (SELECT key FROM files WHERE expires_at <= ? ORDER BY expires_at LIMIT ?)
       RETURNING *`,
      [now, limit],
    );
    return rows.map(toRecord);
  }
}
