// Non-validating readers' checks: a few known fields of an already parsed body, tested as the
// codec's zod schema would test them, without parsing the rest of the body (see Protocol.replyUsage).

/** A test of one field's value. */
export type FieldCheck = (value: unknown) => boolean;
/** Each named field's test; fields not named are not looked at. */
export type FieldChecks = Readonly<Record<string, FieldCheck>>;

/** A JSON object (never null, never an array). */
export const isJsonRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Absent, or passing `check` (zod's `optional`). */
export const optionalField =
  (check: FieldCheck): FieldCheck =>
  (value) =>
    value === undefined || check(value);

/** Absent, null, or passing `check` (zod's `nullish`). */
export const nullishField =
  (check: FieldCheck): FieldCheck =>
  (value) =>
    value == null || check(value);

/** An object whose named fields each pass their check. */
export const fitsFields = (value: unknown, checks: FieldChecks): value is Record<string, unknown> =>
  isJsonRecord(value) && Object.keys(checks).every((key) => checks[key]!(value[key]));

/** `fitsFields` as a field's check, for a nested object. */
export const objectField =
  (checks: FieldChecks): FieldCheck =>
  (value) =>
    fitsFields(value, checks);

/** A wire token count as the codecs' schemas take it: a safe, non-negative integer. */
export const isTokenCount = (value: unknown): value is number =>
  Number.isSafeInteger(value) && (value as number) >= 0;

/** A string (zod's `string`). */
export const isString = (value: unknown): value is string => typeof value === "string";

/** An array whose every item passes `check` (zod's `array`). */
export const arrayField =
  (check: FieldCheck): FieldCheck =>
  (value) =>
    Array.isArray(value) && value.every(check);
