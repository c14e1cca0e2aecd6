/** How an upstream attempt failed, before any byte reached the client. */
export type UpstreamFailure =
  | { kind: "status"; status: number; body: unknown; retryAfter?: string }
  | { kind: "timeout"; message: string }
  | { kind: "connection"; message: string }
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

/** Maps a thrown network error to a failure; undici names its timeouts by code. */
export function failureFromError(error: unknown): UpstreamFailure {
  const code = (error as { code?: string } | null)?.code ?? "";
  const message = error instanceof Error ? error.message : String(error);
  return TIMEOUT_CODES.has(code)
    ? { kind: "timeout", message: `${code}: ${message}` }
    : { kind: "connection", message: code ? `${code}: ${message}` : message };
}

export interface FailurePolicy {
  /** Try the next channel (only possible before the first byte reached the client). */
  retry: boolean;
  /** Counts toward the channel's circuit breaker. */
  channelFault: boolean;
}

/**
 * Which upstream statuses are the channel's fault (retry elsewhere, count toward the breaker) and
 * which are the caller's (returned as they are). 401/403 mean the channel's key is wrong, which
 * another channel may not share.
 */
const STATUS_POLICY: { test: (status: number) => boolean; policy: FailurePolicy }[] = [
  { test: (s) => s === 408 || s === 429 || s >= 500, policy: { retry: true, channelFault: true } },
  { test: (s) => s === 401 || s === 403, policy: { retry: true, channelFault: true } },
  { test: () => true, policy: { retry: false, channelFault: false } },
];

export function failurePolicy(failure: UpstreamFailure): FailurePolicy {
  if (failure.kind !== "status") return { retry: true, channelFault: true };
  return STATUS_POLICY.find((rule) => rule.test(failure.status))!.policy;
}
