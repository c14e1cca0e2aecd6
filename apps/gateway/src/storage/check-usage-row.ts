import type { UsageLogInput } from "./store.ts";

// A usage row is checked before it is queued (issue 15, item 1): one row both drivers refuse (a
// missing status, NaN, a NUL byte Postgres rejects, an error message of megabytes) used to fail
// its whole charge batch, retried forever while every later batch waited. The charge must land
// whatever the row says, so a bad field is repaired (and named) rather than the row dropped.

/** Longest text kept per column; longer text is cut (an error message quoting a whole body). */
const TEXT_LIMITS = {
  requestId: 128,
  userId: 256,
  tokenName: 256,
  model: 256,
  channel: 256,
  endpoint: 64,
  error: 2_000,
} as const;

const COUNTS = [
  "time",
  "tokenId",
  "promptTokens",
  "completionTokens",
  "cachedTokens",
  "cacheWriteTokens",
  "thinkingTokens",
  "credits",
  "latencyMs",
] as const;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
// NUL is the one character Postgres refuses in text.
const NUL = /\u0000/g;

/** Text both drivers store: well-formed UTF-16 (no lone surrogate), no NUL, at most `max` long. */
export function safeText(value: unknown, max: number): string {
  const text = typeof value === "string" ? value : value === undefined ? "" : String(value);
  // The usual row: short, with no surrogate or NUL at all (one scan; it runs twice per call).
  if (text.length <= max && !SUSPECT.test(text)) return text;
  const clean = text.replace(LONE_SURROGATE, "\uFFFD").replace(NUL, "");
  if (clean.length <= max) return clean;
  // Cut before a surrogate pair rather than through it.
  const high = clean.charCodeAt(max - 2);
  return `${clean.slice(0, high >= 0xd800 && high <= 0xdbff ? max - 2 : max - 1)}…`;
}

/** A whole, non-negative, safe integer (a count or an amount of credits). */
export const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

export interface CheckedRow {
  readonly row: UsageLogInput;
  /** What was repaired, for the log; empty when the row was fine. */
  readonly problems: readonly string[];
}

/** The row as both drivers will take it, and what had to be repaired. */
export function checkUsageRow(row: UsageLogInput): CheckedRow {
  const problems: string[] = [];
  // Copied only once a field needs repair: the usual row is fine and passes as it is.
  let fixed: Record<string, unknown> | undefined;
  const repair = (key: string, value: unknown) => {
    problems.push(key);
    fixed ??= { ...row };
    fixed[key] = value;
  };
  for (const key of Object.keys(TEXT_LIMITS) as (keyof typeof TEXT_LIMITS)[]) {
    const value = row[key];
    if (value === undefined && (key === "channel" || key === "error")) continue;
    const text = safeText(value, TEXT_LIMITS[key]);
    if (text !== value) repair(key, text);
  }
  for (const key of COUNTS) {
    const value = row[key];
    if (isCount(value)) continue;
    repair(
      key,
      typeof value === "number" && Number.isFinite(value)
        ? Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.round(value)))
        : 0,
    );
  }
  if (!(typeof row.cost === "number" && Number.isFinite(row.cost))) repair("cost", 0);
  // A status the client could not have been sent is a gateway fault: 500.
  if (!(Number.isInteger(row.status) && row.status >= 100 && row.status <= 599)) {
    repair("status", 500);
  }
  if (typeof row.stream !== "boolean") repair("stream", Boolean(row.stream));
  if (row.uncappedCredits !== undefined && !isCount(row.uncappedCredits)) {
    repair("uncappedCredits", Number.MAX_SAFE_INTEGER);
  }
  return { row: fixed === undefined ? row : (fixed as unknown as UsageLogInput), problems };
}
