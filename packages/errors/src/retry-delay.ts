/**
 * Seconds are rounded up: the value ends up in a Retry-After header, which takes whole seconds,
 * and a client retrying a fraction early would only be refused again.
 */
const wholeSeconds = (seconds: number): number | undefined =>
  Number.isFinite(seconds) && seconds >= 0 ? Math.ceil(seconds) : undefined;

/** A protobuf Duration in its JSON form, as Gemini's RetryInfo.retryDelay carries it ("34.4s"). */
export const parseDurationSeconds = (duration: unknown): number | undefined => {
  if (typeof duration !== "string") return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)s\s*$/.exec(duration);
  return match?.[1] === undefined ? undefined : wholeSeconds(Number(match[1]));
};

/** A Retry-After header value: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). */
export const parseRetryAfterHeader = (
  value: string | null | undefined,
  now: number = Date.now(),
): number | undefined => {
  if (value == null || value.trim() === "") return undefined;
  const trimmed = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(trimmed)) return wholeSeconds(Number(trimmed));
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : wholeSeconds(Math.max(0, (date - now) / 1000));
};

/** The header a gateway should send with the error, if the error says when to retry. */
export const retryAfterHeader = (error: { retryAfterSeconds?: number | undefined }) =>
  error.retryAfterSeconds === undefined ? undefined : String(Math.ceil(error.retryAfterSeconds));
