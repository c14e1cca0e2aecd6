import { isGatewayError } from "@interlingua/errors";
import { isDatabaseUnavailable } from "./storage/database-unavailable.ts";

// A gateway that cannot start says why in one line an operator can act on (and exits 1), not
// with a stack trace: the port is taken, the database is unreachable or refuses us, and so on.

interface Failure {
  readonly code?: unknown;
  readonly syscall?: unknown;
  readonly address?: unknown;
  readonly port?: unknown;
  readonly message?: unknown;
}

/** Where a database URL points, without its credentials. */
export function databaseLocation(url: string): string {
  if (url.startsWith("sqlite:")) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "the configured database";
  }
}

const causeOf = (error: unknown): Failure => {
  let at: unknown = error;
  // A 503 for the database keeps the driver's own error as its cause.
  while (isGatewayError(at) && at.cause !== undefined) at = at.cause;
  return (typeof at === "object" && at !== null ? at : { message: String(at) }) as Failure;
};

const messageOf = (failure: Failure): string => {
  const code = typeof failure.code === "string" ? failure.code : undefined;
  const message = typeof failure.message === "string" ? (failure.message.split("\n")[0] ?? "") : "";
  return code !== undefined && !message.includes(code) ? `${code}: ${message}` : message;
};

const RULES: readonly {
  readonly test: (failure: Failure, error: unknown) => boolean;
  readonly say: (failure: Failure, where: { database: string }) => string;
}[] = [
  {
    test: (f) => f.code === "EADDRINUSE",
    say: (f) =>
      `cannot listen on ${String(f.address ?? "")}:${String(f.port ?? "")}: the port is in use (change listen.port or PORT)`,
  },
  {
    test: (f) => f.code === "EACCES" && f.syscall === "listen",
    say: (f) =>
      `cannot listen on port ${String(f.port ?? "")}: permission denied (use a port above 1023)`,
  },
  {
    test: (f) => f.code === "EADDRNOTAVAIL" || (f.code === "ENOTFOUND" && f.syscall === "listen"),
    say: (f) =>
      `cannot listen on ${String(f.address ?? "")}: no such address on this host (listen.host)`,
  },
  {
    test: (_f, error) => isDatabaseUnavailable(error),
    say: (f, where) => `cannot reach the database at ${where.database}: ${messageOf(f)}`,
  },
  {
    // SQLSTATE 28xxx (authentication), 3D000 (no such database), 42501 (privileges).
    test: (f) => typeof f.code === "string" && /^(28...|3D000|42501)$/.test(f.code),
    say: (f, where) => `the database at ${where.database} refused the gateway: ${messageOf(f)}`,
  },
];

/** One line saying why the gateway could not start. */
export function describeStartupFailure(error: unknown, databaseUrl: string): string {
  const failure = causeOf(error);
  const where = { database: databaseLocation(databaseUrl) };
  const rule = RULES.find((r) => r.test(failure, error));
  return `cannot start: ${rule === undefined ? messageOf(failure) : rule.say(failure, where)}`;
}
