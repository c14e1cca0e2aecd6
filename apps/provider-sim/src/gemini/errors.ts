import { json, type ProtocolErrors, retryAfter } from "../core/protocol-errors.ts";

// Gemini (google.rpc.Status) error body: {error: {code, message, status, details?}}. Rate limits
// say when to retry in a RetryInfo detail, not in a header.

type Kind = { status: string; message: string };

const KINDS: Record<number, Kind> = {
  400: { status: "INVALID_ARGUMENT", message: "Request contains an invalid argument." },
  401: { status: "UNAUTHENTICATED", message: "Request had invalid authentication credentials." },
  403: { status: "PERMISSION_DENIED", message: "The caller does not have permission" },
  404: { status: "NOT_FOUND", message: "Requested entity was not found." },
  429: {
    status: "RESOURCE_EXHAUSTED",
    message: "You exceeded your current quota, please check your plan and billing details.",
  },
  500: {
    status: "INTERNAL",
    message: "An internal error has occurred. Please retry or report the issue.",
  },
  503: { status: "UNAVAILABLE", message: "The model is overloaded. Please try again later." },
  504: {
    status: "DEADLINE_EXCEEDED",
    message: "Deadline expired before operation could complete.",
  },
};

function kindOf(status: number): Kind {
  return KINDS[status] ?? (status >= 500 ? KINDS[503]! : KINDS[400]!);
}

const TYPE = "type.googleapis.com/google.rpc.";

export function geminiErrorBody(
  status: number,
  details: { message?: string; reason?: string; retrySeconds?: number } = {},
) {
  const kind = kindOf(status);
  const extra: Record<string, unknown>[] = [];
  if (details.reason) {
    extra.push({
      "@type": `${TYPE}ErrorInfo`,
      reason: details.reason,
      domain: "googleapis.com",
      metadata: { service: "generativelanguage.googleapis.com" },
    });
  }
  if (status === 429) {
    extra.push({
      "@type": `${TYPE}QuotaFailure`,
      violations: [{ quotaId: "GenerateRequestsPerMinutePerProjectPerModel" }],
    });
  }
  if (details.retrySeconds !== undefined) {
    extra.push({ "@type": `${TYPE}RetryInfo`, retryDelay: `${details.retrySeconds}s` });
  }
  return {
    error: {
      code: status,
      message: details.message ?? kind.message,
      status: kind.status,
      ...(extra.length > 0 ? { details: extra } : {}),
    },
  };
}

export function geminiErrors(): ProtocolErrors {
  return {
    response(status, details = {}) {
      const retrySeconds = retryAfter(status, details);
      const body = geminiErrorBody(status, {
        ...(details.message === undefined ? {} : { message: details.message }),
        ...(details.reason === undefined ? {} : { reason: details.reason }),
        ...(retrySeconds === undefined ? {} : { retrySeconds }),
      });
      return json(body, status, { "content-type": "application/json; charset=UTF-8" });
    },
    streamFrame: (status) => ({ data: JSON.stringify(geminiErrorBody(status)) }),
    streamStatus: 503,
  };
}
