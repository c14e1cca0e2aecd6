import type { UpstreamProtocol } from "@interlingua/core-types";
import { defaultMessageFor } from "./default-message.js";
import { GatewayError } from "./gateway-error.js";
import { isClientErrorStatus, isErrorStatus } from "./gateway-status.js";
import { readBody } from "./read-body.js";
import { redactSecrets } from "./redact-secrets.js";
import { parseRetryAfterHeader } from "./retry-delay.js";
import { standardErrorTypeFor } from "./standard-error-type.js";
import { effectiveUpstreamStatus, gatewayStatusForUpstream } from "./upstream-status.js";

export interface UpstreamErrorOptions {
  /** The upstream's Retry-After header, when it sent one. */
  retryAfter?: string | null;
  /** Clock for HTTP-date Retry-After values; defaults to `Date.now()`. */
  now?: number;
}

/** What one protocol's parser found in the body. */
export interface UpstreamErrorReading {
  /** The status the body stands for, when it says. */
  status?: number | undefined;
  /** The body's status beats the HTTP status (see `effectiveUpstreamStatus`). */
  overrides?: boolean;
  message?: string | undefined;
  code?: string | undefined;
  param?: string | undefined;
  retryAfterSeconds?: number | undefined;
}

// Long enough for any real provider message, short enough that a runaway body is not echoed.
const maxMessageLength = 1000;

const cleanMessage = (message: string | undefined) => {
  const trimmed = redactSecrets(message ?? "").trim();
  if (trimmed === "") return undefined;
  return trimmed.length > maxMessageLength ? `${trimmed.slice(0, maxMessageLength)}…` : trimmed;
};

export const buildUpstreamError = (
  protocol: UpstreamProtocol,
  httpStatus: number,
  body: unknown,
  reading: UpstreamErrorReading,
  options: UpstreamErrorOptions = {},
): GatewayError => {
  const upstreamStatus = effectiveUpstreamStatus(httpStatus, reading);
  const status = gatewayStatusForUpstream(upstreamStatus);
  const clientFault = isClientErrorStatus(status);
  const message = cleanMessage(reading.message);
  const retryAfterSeconds =
    reading.retryAfterSeconds ?? parseRetryAfterHeader(options.retryAfter, options.now);
  const read = readBody(body);
  // The status the upstream really answered; inside a 200 stream, the one its error stands for.
  const shown = isErrorStatus(httpStatus) ? httpStatus : upstreamStatus;
  return new GatewayError({
    status,
    type: standardErrorTypeFor(status),
    // The client's own mistake reads as the upstream worded it; anything else says it came from
    // upstream, so a 502 quoting "invalid API key" is not mistaken for the client's key.
    message: clientFault
      ? (message ?? defaultMessageFor(status))
      : `Upstream provider error (${shown})${message === undefined ? "" : `: ${message}`}`,
    // The upstream's codes and params describe the client's request only when it is at fault.
    ...(clientFault && reading.code ? { code: reading.code } : {}),
    ...(clientFault && reading.param ? { param: reading.param } : {}),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    upstream: {
      protocol,
      status: httpStatus,
      body: read.kind === "json" ? read.json : read.text,
    },
  });
};
