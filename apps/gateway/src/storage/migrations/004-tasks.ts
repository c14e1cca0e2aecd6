import type { Migration } from "../migrations.ts";

// Asynchronous generation (video, images): the task rows, the webhook pushes still owed, and
// each user's webhook signing secret. Times are unix milliseconds. A task's quota hold lives in
// `leases` under the pseudo-instance `task:<id>` with a heartbeat that never goes stale, so
// tokens.reserved and users.reserved stay the sums of their lease rows.
export const TASKS_MIGRATION: Migration = {
  version: 4,
  name: "tasks and webhook deliveries",
  sql: `
CREATE TABLE tasks (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  token_id BIGINT NOT NULL,
  kind TEXT NOT NULL,
  model TEXT NOT NULL,
  channel TEXT,
  status TEXT NOT NULL,
  progress INTEGER NOT NULL DEFAULT 0,
  request TEXT NOT NULL,
  upstream TEXT,
  result TEXT,
  error TEXT,
  webhook_url TEXT,
  language TEXT,
  hold_credits BIGINT NOT NULL DEFAULT 0,
  hold_token BOOLEAN NOT NULL DEFAULT FALSE,
  hold_user BOOLEAN NOT NULL DEFAULT FALSE,
  credits_cost BIGINT NOT NULL DEFAULT 0,
  cost DOUBLE PRECISION NOT NULL DEFAULT 0,
  estimated_time INTEGER NOT NULL DEFAULT 0,
  idempotency_key TEXT,
  source_task_id TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_poll_at BIGINT NOT NULL,
  claimed_until BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  completed_at BIGINT
);
CREATE UNIQUE INDEX tasks_idempotency ON tasks (user_id, idempotency_key);
CREATE INDEX tasks_due ON tasks (status, next_poll_at);
CREATE INDEX tasks_by_user ON tasks (user_id, created_at);
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL UNIQUE,
  user_id TEXT NOT NULL,
  url TEXT NOT NULL,
  body TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  claimed_until BIGINT NOT NULL DEFAULT 0,
  last_status INTEGER,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);
CREATE TABLE webhook_secrets (
  user_id TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
`,
};
