import type { Migration } from "../migrations.ts";

// Issue 15, items 1 and 3. A call whose usage row (or charge) a charge batch could not write is
// isolated and kept here, with the reason, instead of blocking every later batch; `applied` says
// whether its charge still reached `used` (only its row was refused) or not (an operator applies
// it by hand from `charge`). `usage_logs.uncapped_credits` flags a call whose upstream reported
// usage costing more than the call's hold: it was charged the hold, and this is what it claimed.
export const BILLING_SAFETY_MIGRATION: Migration = {
  version: 6,
  name: "billing dead letters and capped charges",
  sql: `
CREATE TABLE billing_dead_letters (
  id {{serial}},
  batch_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  reason TEXT NOT NULL,
  applied BOOLEAN NOT NULL,
  charge TEXT,
  log TEXT NOT NULL
);
CREATE INDEX billing_dead_letters_by_time ON billing_dead_letters (created_at);
ALTER TABLE usage_logs ADD COLUMN uncapped_credits BIGINT;
`,
};
