import { json, type ProtocolErrors, retryAfter } from "../core/protocol-errors.ts";

// Anthropic error body: {type: "error", error: {type, message}, request_id}, with a request-id header.

type Kind = { type: string; message: string };

const KINDS: Record<number, Kind> = {
  400: { type: "invalid_request_error", message: "Invalid request." },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  403: {
    type: "permission_error",
    message: "Your API key does not have permission to use the specified resource.",
  },
  404: { type: "not_found_error", message: "The requested resource could not be found." },
  413: {
    type: "request_too_large",
    message: "Request exceeds the maximum allowed number of bytes.",
  },
  429: {
    type: "rate_limit_error",
    message: "This request would exceed the rate limit for your organization.",
  },
  500: { type: "api_error", message: "Internal server error" },
  504: { type: "timeout_error", message: "Request timed out" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

function kindOf(status: number): Kind {
  return KINDS[status] ?? (status >= 500 ? KINDS[500]! : KINDS[400]!);
}

export function anthropicErrors(requestId: string, now: () => number): ProtocolErrors {
  const body = (status: number, message?: string) => {
    const kind = kindOf(status);
    return {
      type: "error",
      error: { type: kind.type, message: message ?? kind.message },
      request_id: requestId,
    };
  };
  return {
    response(status, details = {}) {
      const headers: Record<string, string> = { "request-id": requestId };
      const seconds = retryAfter(status, details);
      if (seconds !== undefined) headers["retry-after"] = String(seconds);
      if (status === 429) {
        headers["anthropic-ratelimit-requests-remaining"] = "0";
        headers["anthropic-ratelimit-requests-reset"] = new Date(
          now() + (seconds ?? 1) * 1000,
        ).toISOString();
      }
      return json(body(status, details.message), status, headers);
    },
    streamFrame: (status) => {
      const { type, error } = body(status);
      return { event: "error", data: JSON.stringify({ type, error }) };
    },
    streamStatus: 529,
  };
}
