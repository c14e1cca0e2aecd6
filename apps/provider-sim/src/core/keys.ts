export type KeyCheck = "ok" | "missing" | "invalid";

/** Any non-empty key passes unless the simulator was given a list. */
export function checkKey(
  accepted: ReadonlySet<string> | undefined,
  key: string | undefined,
): KeyCheck {
  if (!key) return "missing";
  if (accepted && !accepted.has(key)) return "invalid";
  return "ok";
}
