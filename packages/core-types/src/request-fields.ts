/**
 * What a client format does with each field of its request when the request goes to another
 * protocol. `mapped`: carried (translated, or approximated with a `mapped` warning); `warned`:
 * kept only for an upstream of the same format and otherwise dropped with a `dropped` warning;
 * `refused`: a 400 naming the field, because no upstream can honour it (server-side state the
 * gateway does not keep). Every format exports one such table; a test walks the format's request
 * schema and proves every field is in it, so no field can vanish unreported.
 */
export type RequestFieldAction = "mapped" | "warned" | "refused";
export type RequestFieldTable = Readonly<Record<string, RequestFieldAction>>;

/** What happens to a field the table does not name (an unknown top-level field in extras). */
export const UNLISTED_FIELD_ACTION: RequestFieldAction = "warned";

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The field paths held in one extras bag: its keys, and one level below for the keys named in
 * `nested` (whose values are objects of left-over sub-fields, e.g. responses `reasoning`).
 */
export function extrasFieldPaths(
  bag: Record<string, unknown> | undefined,
  nested: ReadonlySet<string> = new Set(),
): string[] {
  if (bag === undefined) return [];
  const paths: string[] = [];
  for (const key in bag) {
    const value = bag[key];
    if (nested.has(key) && isRecord(value)) {
      for (const sub in value) paths.push(`${key}.${sub}`);
    } else paths.push(key);
  }
  return paths;
}
