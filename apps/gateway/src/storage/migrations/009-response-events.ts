import type { Migration } from "../migrations.ts";

// The Responses stream events a background response made with `stream: true` (its own
// `sequence_number` each, the event's JSON as its client got it), so a client resumes its stream
// with `GET /v1/responses/{id}?stream=true&starting_after=N` on any instance. Bounded per response
// (`responses.stream_events_max`, `responses.stream_events_max_bytes`) and deleted with it.
export const RESPONSE_EVENTS_MIGRATION: Migration = {
  version: 9,
  name: "stored response events",
  sql: `
ALTER TABLE stored_responses ADD COLUMN streamed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE stored_responses ADD COLUMN stream_warnings TEXT;
CREATE TABLE stored_response_events (
  response_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  body TEXT NOT NULL,
  PRIMARY KEY (response_id, seq)
) {{keyed}};
`,
};
