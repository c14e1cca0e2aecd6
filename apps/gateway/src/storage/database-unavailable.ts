import { type GatewayError, isGatewayError, unavailable } from "@interlingua/errors";

/** What a client is told to wait before retrying while the database is unreachable (seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// SQLSTATE classes and codes that mean "the server is gone or not taking connections", not
// "this statement is wrong": connection exceptions (08), shutdowns and startup (57P01-57P03),
// too many connections (53300).
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
// pg reports a lost socket and a pool that could not connect in time only in words.
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /connection (?:is )?closed/i,
  /not queryable/i,
  /timeout exceeded when trying to connect/i,
  /cannot use a pool after calling end/i,
  /the database system is (?:starting up|shutting down|in recovery mode)/i,
];

/** Whether a database error means the database is unreachable (as opposed to a bad statement). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (isGatewayError(error)) return error.status === 503 && isDatabaseUnavailable(error.cause);
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (code.startsWith("08") && code.length === 5) return true;
    if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
  }
  return typeof message === "string" && UNAVAILABLE_MESSAGES.some((m) => m.test(message));
}

/**
 * A database outage as the client sees it: 503 with Retry-After, in whatever envelope the
 * endpoint renders errors in. The driver's own error stays the cause (logs only: it may quote
 * the connection string).
 */
export const databaseUnavailable = (cause: unknown): GatewayError =>
  unavailable("the database is unavailable; retry shortly", {
    retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS,
    cause,
  });

/** Rethrows an outage as `databaseUnavailable`, anything else as it is. */
export function asDatabaseError(error: unknown): unknown {
  return isGatewayError(error) || !isDatabaseUnavailable(error)
    ? error
    : databaseUnavailable(error);
}
