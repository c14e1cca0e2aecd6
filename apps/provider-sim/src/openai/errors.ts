import {
  type ErrorDetails,
  json,
  type ProtocolErrors,
  retryAfter,
} from "../core/protocol-errors.ts";

// OpenAI error body: {error: {message, type, param, code}}.

type Kind = { type: string; code: string | null; message: string };

const KINDS: Record<number, Kind> = {
  400: { type: "invalid_request_error", code: null, message: "Invalid request." },
  401: { type: "invalid_request_error", code: null, message: "Incorrect API key provided." },
  403: {
    type: "invalid_request_error",
    code: "unsupported_country_region_territory",
    message: "Forbidden.",
  },
  404: { type: "invalid_request_error", code: "model_not_found", message: "Not found." },
  429: {
    type: "requests",
    code: "rate_limit_exceeded",
    message: "Rate limit reached for requests. Please try again later.",
  },
  500: {
    type: "server_error",
    code: null,
    message: "The server had an error while processing your request. Sorry about that!",
  },
  503: {
    type: "server_error",
    code: null,
    message: "The engine is currently overloaded, please try again later.",
  },
};

function kindOf(status: number): Kind {
  return KINDS[status] ?? (status >= 500 ? KINDS[500]! : KINDS[400]!);
}

function body(status: number, details: ErrorDetails = {}) {
  const kind = kindOf(status);
  return {
    error: {
      message: details.message ?? kind.message,
      type: details.type ?? kind.type,
      param: details.param ?? null,
      code: details.reason ?? kind.code,
    },
  };
}

export function openaiErrors(requestId: string): ProtocolErrors {
  return {
    response(status, details = {}) {
      const headers: Record<string, string> = { "x-request-id": requestId };
      const seconds = retryAfter(status, details);
      if (seconds !== undefined) {
        headers["retry-after"] = String(seconds);
        headers["x-ratelimit-remaining-requests"] = "0";
        headers["x-ratelimit-reset-requests"] = `${seconds}s`;
      }
      return json(body(status, details), status, headers);
    },
    streamFrame: (status) => ({ data: JSON.stringify(body(status)) }),
    streamStatus: 500,
  };
}
