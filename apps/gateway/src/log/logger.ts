import { type DestinationStream, type Logger, type LoggerOptions, pino } from "pino";
import { traceFields } from "./tracing.ts";

export type { Logger };

/**
 * Structured JSON logs. Credentials never reach a log line on purpose (request logs carry the
 * token's id, not its key); two safety nets catch anything that slips through. pino's `redact`
 * takes the top-level and header fields by path. Credential-named members deeper down are masked
 * on the finished line (`maskCredentialMembers`): pino's wildcard paths (`*.key`) cost about
 * 10 µs a line, more than the rest of the line, and reached one level only.
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
];

const CENSOR = "[redacted]";
/** A JSON member named like a credential, with a string value, at any depth of a line. */
const CREDENTIAL_MEMBER =
  /"(key|api_key|apiKey|authorization|x-api-key|x-goog-api-key|x-vendor-api-key)":"(?:[^"\\]|\\.)*"/g;

/** `line` (a JSON log line) with the string value of every credential-named member masked. */
export const maskCredentialMembers = (line: string): string =>
  line.replace(CREDENTIAL_MEMBER, `"$1":"${CENSOR}"`);

export interface GatewayLoggerOptions extends LoggerOptions {
  /**
   * Each line carries the active span's trace_id and span_id (set it to `tracing.enabled`): with
   * tracing off there is no span, and the mixin would only copy every line's fields once more.
   */
  readonly traceIds?: boolean;
}

export function createLogger(
  { traceIds = true, ...options }: GatewayLoggerOptions = {},
  destination?: DestinationStream,
): Logger {
  const settings: LoggerOptions = {
    level: process.env["LOG_LEVEL"] ?? "info",
    base: { service: "interlingua-gateway" },
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
    hooks: { streamWrite: maskCredentialMembers },
    ...(traceIds ? { mixin: traceFields } : {}),
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
