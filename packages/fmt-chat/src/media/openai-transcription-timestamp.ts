// Cue timestamps of SRT (`hh:mm:ss,mmm`) and WebVTT (`hh:mm:ss.mmm`). Hours are never wrapped
// and take two digits or more, so a cue past 99 hours stays ordered and readable.

/** The largest whole millisecond count kept exact; later times are clamped to it. */
const MAX_MS = Number.MAX_SAFE_INTEGER;

/**
 * Seconds -> whole milliseconds, rounded to nearest. Monotonic: a later time never gets an
 * earlier stamp (multiplying by 1000 and rounding both preserve order). Negative, NaN and
 * infinite inputs are not times: negatives and NaN read as 0, +Infinity as the maximum.
 */
export function toCueMillis(seconds: number): number {
  if (Number.isNaN(seconds) || seconds <= 0) return 0;
  return Math.min(Math.round(seconds * 1000), MAX_MS);
}

/** Whole milliseconds as a cue stamp: `,` before the milliseconds for SRT, `.` for WebVTT. */
export function formatCueMillis(ms: number, separator: "," | "."): string {
  const millis = ms % 1000;
  const totalSeconds = (ms - millis) / 1000;
  const seconds = totalSeconds % 60;
  const totalMinutes = (totalSeconds - seconds) / 60;
  const minutes = totalMinutes % 60;
  const hours = (totalMinutes - minutes) / 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return `${two(hours)}:${two(minutes)}:${two(seconds)}${separator}${String(millis).padStart(3, "0")}`;
}

/** `hh:mm:ss,mmm` (SubRip). */
export const formatSrtTimestamp = (seconds: number): string =>
  formatCueMillis(toCueMillis(seconds), ",");

/** `hh:mm:ss.mmm` (WebVTT). */
export const formatVttTimestamp = (seconds: number): string =>
  formatCueMillis(toCueMillis(seconds), ".");

/** Either stamp back to milliseconds (tests, and readers of rendered cues); undefined if malformed. */
export function parseCueTimestamp(text: string): number | undefined {
  const match = /^(\d{2,}):([0-5]\d):([0-5]\d)[,.](\d{3})$/.exec(text);
  if (match === null) return undefined;
  const [, h, m, s, ms] = match;
  return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 + Number(ms);
}
