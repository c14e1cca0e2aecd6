import type { GatewayStatus } from "@interlingua/errors";
import { isClientErrorStatus, lookupStatus } from "@interlingua/errors/internal";
import * as z from "zod/mini";

/** The error types Anthropic documents for the messages protocol (docs.claude.com/en/api/errors). */
export const messagesErrorTypeSchema = z.enum([
  "invalid_request_error",
  "authentication_error",
  "billing_error",
  "permission_error",
  "not_found_error",
  "request_too_large",
  "rate_limit_error",
  "api_error",
  "timeout_error",
  "overloaded_error",
]);
export type MessagesErrorType = z.infer<typeof messagesErrorTypeSchema>;

/** The HTTP status Anthropic sends with each type; used to read errors that arrive in a 200 stream. */
export const httpStatusOfMessagesErrorType = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
} as const satisfies Record<MessagesErrorType, number>;

/**
 * `error.type` of the messages-format body per gateway status. docs/api-reference.md shows four of them
 * (invalid_request_error, authentication_error, rate_limit_error, api_error); the rest are
 * Anthropic's documented types for the same status, so Anthropic SDKs raise the right class.
 * 502 has no Anthropic type of its own and shares api_error with 500; 503 is overloaded_error,
 * the type Anthropic clients treat as "retry later".
 */
export const messagesErrorTypes = {
  400: "invalid_request_error",
  401: "authentication_error",
  402: "billing_error",
  403: "permission_error",
  404: "not_found_error",
  // docs/api-reference.md's 413 row is invalid_request_error; Anthropic's own request_too_large is only read.
  413: "invalid_request_error",
  429: "rate_limit_error",
  500: "api_error",
  502: "api_error",
  503: "overloaded_error",
} as const satisfies Record<GatewayStatus, MessagesErrorType>;

const messagesErrorTypeByAnthropicHttp = new Map<number, MessagesErrorType>(
  Object.entries(httpStatusOfMessagesErrorType).map(([type, http]) => [
    http,
    type as MessagesErrorType,
  ]),
);

export const messagesErrorTypeFor = (status: number): MessagesErrorType =>
  lookupStatus(messagesErrorTypes, status) ??
  messagesErrorTypeByAnthropicHttp.get(status) ??
  // Anthropic documents invalid_request_error as its type for any other 4xx.
  (isClientErrorStatus(status) ? "invalid_request_error" : "api_error");

const gatewayStatusByMessagesType = new Map<string, number>();
for (const [status, type] of Object.entries(messagesErrorTypes)) {
  // api_error is both 500 and 502: the first row (500) wins, the same class either way.
  if (!gatewayStatusByMessagesType.has(type)) gatewayStatusByMessagesType.set(type, Number(status));
}

/** The gateway status a messages-format type stands for when no HTTP status says otherwise. */
export const gatewayStatusForMessagesErrorType = (type: unknown): number | undefined => {
  if (typeof type !== "string") return undefined;
  const parsed = messagesErrorTypeSchema.safeParse(type);
  return (
    gatewayStatusByMessagesType.get(type) ??
    (parsed.success ? httpStatusOfMessagesErrorType[parsed.data] : undefined)
  );
};
