/**
 * A row of a data table keyed by text that came off the wire. Own keys only: an upstream `code`
 * of "constructor" or "__proto__" must not find Object.prototype's members.
 */
export const tableLookup = <T>(
  table: Readonly<Record<string | number, T>>,
  key: string | number,
): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
