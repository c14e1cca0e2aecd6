import type { Migration } from "../migrations.ts";

// Issue 15, item 5. A token made through the management API keeps its own rate limits (at most
// its maker's), so a rate-limited key cannot mint an unlimited child. NULL: the config's limit
// for that key, or the default.
export const TOKEN_SCOPE_MIGRATION: Migration = {
  version: 7,
  name: "token rate limits",
  sql: `
ALTER TABLE tokens ADD COLUMN rate_rpm BIGINT;
ALTER TABLE tokens ADD COLUMN rate_tpm BIGINT;
`,
};
