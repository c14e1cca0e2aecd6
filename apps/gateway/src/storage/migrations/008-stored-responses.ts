import type { Migration } from "../migrations.ts";

// Responses kept for `store: true` (issue 25): the Responses object as last known, and its input
// items (the whole conversation up to it) and output items, one row each, so `previous_response_id`
// rebuilds a history and `item_reference` finds an item by id. An item a model made names the
// upstream protocol that made it (`origin`): its reasoning is only replayed to that protocol. Rows belong to a user and expire
// (`responses.retention_days`). A background response keeps the request it runs
// (`background_request`) and the time its runner's claim lapses. Times are unix milliseconds.
export const STORED_RESPONSES_MIGRATION: Migration = {
  version: 8,
  name: "stored responses",
  sql: `
CREATE TABLE stored_responses (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  previous_id TEXT,
  status TEXT NOT NULL,
  body TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  background_request TEXT,
  claimed_until BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX stored_responses_by_expiry ON stored_responses (expires_at);
CREATE INDEX stored_responses_open ON stored_responses (status, claimed_until);
CREATE TABLE stored_response_items (
  response_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  output BOOLEAN NOT NULL,
  origin TEXT,
  body TEXT NOT NULL,
  PRIMARY KEY (response_id, position)
) {{keyed}};
CREATE INDEX stored_response_items_by_item ON stored_response_items (user_id, item_id);
`,
};
