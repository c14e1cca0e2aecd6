import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";
import { traceFields } from "./tracing.ts";

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
    // trace_id and span_id of the active span (an OpenTelemetry SDK registered, tracing on).
    mixin: traceFields,
    ...options,
  };
  return destination === undefined ? pino(settings) : pino(settings, destination);
}

const HOOKS = Symbol.for("pino.hooks");
type Hooks = { streamWrite?: (line: string) => string };

/**
 * A logger (a child of `logger`, same destination and level) whose every line has `redact`
 * applied to its final JSON text: the one place that sees messages, fields and serialised
 * errors (stack traces included) alike. pino's `streamWrite` hook is read from the logger, so a
 * child's own hook covers it and every child made from it.
 */
export function redactingLogger(logger: Logger, redact: (text: string) => string): Logger {
  const child = logger.child({});
  const holder = child as unknown as Record<symbol, Hooks | undefined>;
  const hooks = holder[HOOKS] ?? {};
  const previous = hooks.streamWrite;
  holder[HOOKS] = {
    ...hooks,
    streamWrite: (line) => redact(previous === undefined ? line : previous(line)),
  };
  return child;
}

/** The URL as it may be logged: the `key` query parameter (native auth) is masked. */
export function loggableUrl(url: URL): string {
  if (!url.searchParams.has("key")) return url.pathname + url.search;
  const copy = new URL(url);
  copy.searchParams.set("key", "[redacted]");
  return copy.pathname + copy.search;
}
