/** How an upstream attempt failed, before any byte reached the client. */
export type UpstreamFailure =
  | { kind: "status"; status: number; body: unknown; retryAfter?: string }
  | { kind: "timeout"; message: string }
  | {
      kind: "connection";
      message: string;
      /**
       * The connection closed before the upstream answered a status: most often a pooled one it
       * had let go idle just as the call went out on it (its keep-alive ran out while this side's
       * event loop was busy). Tried once more on a fresh connection (`callChannel`).
       */
      closedUnanswered?: boolean;
    }
  | { kind: "malformed"; message: string };

const TIMEOUT_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "ETIMEDOUT",
  "FIRST_BYTE_TIMEOUT",
]);

/**
 * A non-2xx answer as a failure: its error body (read, capped, by the caller) parsed as JSON when
 * it is JSON, else kept as text for the errors package, and its Retry-After kept.
 */
export function statusFailure(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
): UpstreamFailure {
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's HTML page): the parser of upstream errors takes the text.
  }
  const retryAfter = headers["retry-after"];
  return {
    kind: "status",
    status,
    body,
    ...(typeof retryAfter === "string" ? { retryAfter } : {}),
  };
}

/** A connection the other side closed (reset, broken pipe, undici's "other side closed"). */
const CLOSED_CODES = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

/**
 * Maps a thrown network error to a failure; undici names its timeouts by code. `unanswered`:
 * no status had come back when it was thrown.
 */
export function failureFromError(error: unknown, unanswered = false): UpstreamFailure {
  const code = (error as { code?: string } | null)?.code ?? "";
  const message = error instanceof Error ? error.message : String(error);
  if (TIMEOUT_CODES.has(code)) return { kind: "timeout", message: `${code}: ${message}` };
  return {
    kind: "connection",
    message: code ? `${code}: ${message}` : message,
    ...(unanswered && CLOSED_CODES.has(code) ? { closedUnanswered: true } : {}),
  };
}

export interface FailurePolicy {
  /** Try the next channel (only possible before the first byte reached the client). */
  retry: boolean;
  /**
   * What the failure says of the channel's health, for its circuit breaker: `unhealthy` (5xx,
   * timeouts, connection errors) counts toward opening it; `alive` (it answered, the caller was
   * wrong) closes it; `neutral` (rate limited, a key the channel does not take, a reply the
   * gateway could not read) changes nothing.
   */
  health: "unhealthy" | "alive" | "neutral";
}

/**
 * Which upstream statuses are the channel's fault (retry elsewhere) and which are the caller's
 * (returned as they are). 401/403 mean the channel's key is wrong, which another channel may not
 * share; 429 that it is busy: both try another, neither means the channel is down.
 */
const STATUS_POLICY: { test: (status: number) => boolean; policy: FailurePolicy }[] = [
  { test: (s) => s >= 500, policy: { retry: true, health: "unhealthy" } },
  { test: (s) => s === 408 || s === 429, policy: { retry: true, health: "neutral" } },
  { test: (s) => s === 401 || s === 403, policy: { retry: true, health: "neutral" } },
  { test: () => true, policy: { retry: false, health: "alive" } },
];

/** Failures without a status: the channel did not answer, or answered what could not be read. */
const KIND_POLICY: Record<Exclude<UpstreamFailure["kind"], "status">, FailurePolicy> = {
  timeout: { retry: true, health: "unhealthy" },
  connection: { retry: true, health: "unhealthy" },
  malformed: { retry: true, health: "neutral" },
};

export function failurePolicy(failure: UpstreamFailure): FailurePolicy {
  if (failure.kind !== "status") return KIND_POLICY[failure.kind];
  return STATUS_POLICY.find((rule) => rule.test(failure.status))!.policy;
}
