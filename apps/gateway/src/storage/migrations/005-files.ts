import type { Migration } from "../migrations.ts";

// Files the gateway serves from `public_url`: uploads (72 h) and generated task results (24 h).
// The bytes live in the file store (a directory or S3); this row is what every instance reads
// to serve, expire and sweep them. Times are unix milliseconds.
export const FILES_MIGRATION: Migration = {
  version: 5,
  name: "files",
  sql: `
CREATE TABLE files (
  key TEXT PRIMARY KEY,
  user_id TEXT,
  purpose TEXT NOT NULL,
  filename TEXT,
  content_type TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX files_by_expiry ON files (expires_at);
`,
};
