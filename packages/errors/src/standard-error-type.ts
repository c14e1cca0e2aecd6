import { type GatewayStatus, isClientErrorStatus, lookupStatus } from "./gateway-status.js";

/**
 * `type` of the standard body per status, as docs/api-reference.md's table gives it. 503 is blank in the spec:
 * `service_unavailable` follows the rows the gateway itself invented (402 `payment_required`,
 * 502 `bad_gateway`), which are the snake-cased HTTP reason phrases.
 */
export const standardErrorTypes = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "payment_required",
  403: "permission_error",
  404: "not_found_error",
  413: "invalid_request_error",
  429: "rate_limit_error",
  500: "server_error",
  502: "bad_gateway",
  503: "service_unavailable",
} as const satisfies Record<GatewayStatus, string>;

export type StandardErrorType = (typeof standardErrorTypes)[GatewayStatus];

/** Statuses outside the table keep their class: a client error is invalid, a server error is ours. */
export const standardErrorTypeFor = (status: number): string =>
  lookupStatus(standardErrorTypes, status) ??
  (isClientErrorStatus(status) ? "invalid_request_error" : "server_error");
