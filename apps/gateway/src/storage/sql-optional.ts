// Readers of nullable columns: SQL NULL (or a missing column) is `undefined` in the row types,
// never `null`, `"null"` or 0. Shared by the row readers of every SQL table.

const missing = (value: unknown): value is null | undefined =>
  value === null || value === undefined;

export const optText = (value: unknown): string | undefined =>
  missing(value) ? undefined : String(value);

export const optNum = (value: unknown): number | undefined =>
  missing(value) ? undefined : Number(value);

/** A JSON text column, parsed. */
export const optJson = (value: unknown): unknown =>
  missing(value) ? undefined : JSON.parse(String(value));
