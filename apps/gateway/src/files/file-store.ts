// Where the gateway keeps the bytes it serves from `public_url` (uploads, generated images and
// videos): a local directory (`files_dir`, the embedded default) or S3-compatible object storage
// (`files.s3`), so several instances serve the same files. Metadata and expiry live in the
// database's `files` table (FileRecords); a store only holds bytes under a key.

export interface PutOptions {
  readonly contentType: string;
  /** Abort and delete once more than this many bytes arrived (size capped while streaming). */
  readonly maxBytes?: number;
}

export interface FileStore {
  readonly driver: "local" | "s3";
  /** Writes the bytes under `key`; resolves to the byte count. Rejects (nothing kept) past maxBytes. */
  put(
    key: string,
    body: ReadableStream<Uint8Array> | Uint8Array,
    options: PutOptions,
  ): Promise<number>;
  /** The bytes, streamed; undefined when there is no such key. */
  get(key: string): Promise<ReadableStream<Uint8Array> | undefined>;
  delete(key: string): Promise<void>;
  close(): Promise<void>;
}

export interface FileRecord {
  readonly key: string;
  readonly userId: string | undefined;
  readonly purpose: "upload" | "task-result";
  readonly filename: string | undefined;
  readonly contentType: string;
  readonly bytes: number;
  /** Unix ms. */
  readonly createdAt: number;
  /** Unix ms; the file answers 404 from then on and the sweeper deletes it. */
  readonly expiresAt: number;
}

/** The `files` table (both drivers). */
export interface FileRecords {
  insert(record: FileRecord): Promise<void>;
  get(key: string): Promise<FileRecord | undefined>;
  /** Up to `limit` records expired at `now`, removed from the table and returned (for the sweeper). */
  takeExpired(now: number, limit: number): Promise<FileRecord[]>;
}
