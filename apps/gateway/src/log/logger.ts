import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";

export type { Logger };

/**
 * Structured JSON logs. Credentials never reach a log line on purpose (request logs carry the
 * token's id, not its key); the redaction list is the safety net for anything that slips through.
 */
export const REDACTED_PATHS = [
  "key",
  "api_key",
  "apiKey",
  "authorization",
  "headers.authorization",
  'headers["x-api-key"]',
  'headers["x-goog-api-key"]',
  'headers["x-vendor-api-key"]',
  "*.key",
  "*.api_key",
  "*.apiKey",
  "*.authorization",
];

export function createLogger(options: LoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings: LoggerOptions = {
    level: process.env["LOG_LEVEL"] ?? "info",
    base: { service: "interlingua-gateway" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    ...options,
  };
  return destination === undefined ? pino(settings) : pino(settings, destination);
}

/** The URL as it may be logged: the `key` query parameter (native auth) is masked. */
export function loggableUrl(url: URL): string {
  if (!url.searchParams.has("key")) return url.pathname + url.search;
  const copy = new URL(url);
  copy.searchParams.set("key", "[redacted]");
  return copy.pathname + copy.search;
}
