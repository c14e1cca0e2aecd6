// Apart from usage.ts, which holds zod schemas: the codecs call these helpers, and a bundler drops
// a module none of whose exports is used, but never a top-level schema call in one it keeps.
import type { Usage } from "./usage.js";
import type { Warning } from "./warning.js";

export const emptyUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
});

/** The usage of a reply that reported none: zero counts marked `known: false`. */
export const unknownUsage = (): Usage => ({ ...emptyUsage(), known: false });

/** Whether the upstream reported this usage (false: its zero counts mean unknown). */
export const isUsageKnown = (usage: Usage): boolean => usage.known !== false;

/**
 * A whole reply with its usage (`wire[field]`) set aside when it is missing, null or its counts
 * are not token counts (negative, fractional, strings): the answer itself is good, so it is read
 * without them, the usage is unknown (`known: false`: the caller estimates it, as for a stream)
 * and `onWarning` says so. A reply is never refused for its usage alone.
 */
export function setAsideMalformedUsage(
  wire: unknown,
  field: string,
  usage: { safeParse(value: unknown): { success: boolean } },
  onWarning?: (warning: Warning) => void,
): unknown {
  if (typeof wire !== "object" || wire === null || Array.isArray(wire)) return wire;
  const { [field]: value, ...rest } = wire as Record<string, unknown>;
  if (value != null && usage.safeParse(value).success) return wire;
  onWarning?.({
    type: "dropped",
    feature: "usage",
    message: `${field} is missing or not token counts: estimated from the output`,
  });
  return value === undefined ? wire : rest;
}
