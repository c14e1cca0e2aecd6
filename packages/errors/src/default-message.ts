import { type GatewayStatus, isClientErrorStatus, lookupStatus } from "./gateway-status.js";

/** What a client reads when nothing more specific is known; docs/api-reference.md's "Meaning" column. */
export const defaultMessages = {
  400: "Invalid request",
  401: "Invalid or missing API key",
  402: "Insufficient balance",
  403: "No permission for this resource",
  404: "Not found",
  413: "Request too large",
  429: "Too many requests",
  500: "Internal server error",
  502: "Bad gateway",
  503: "Service unavailable",
} as const satisfies Record<GatewayStatus, string>;

export const defaultMessageFor = (status: number): string =>
  lookupStatus(defaultMessages, status) ??
  (isClientErrorStatus(status) ? defaultMessages[400] : defaultMessages[500]);
