import {
  type GatewayError,
  renderError,
  retryAfterHeader,
  toGatewayError,
} from "@interlingua/errors";
import { renderMessagesError } from "@interlingua/fmt-messages";
import { isAnthropicErrorCode } from "@interlingua/fmt-messages/tables";
import { renderNativeError } from "@interlingua/fmt-native";
import type { ErrorStyle } from "./endpoints.ts";

/**
 * Every error body the gateway answers with (docs/api-reference.md, Errors): a generation
 * endpoint's own (`ErrorStyle`), the management API's `{success, message, data}`, the upload one.
 */
export type ErrorFamily = ErrorStyle | "management" | "upload";

/**
 * Messages errors come in docs/api-reference.md's two bodies: Anthropic's
 * `{type: error, error: {type, message}}`, which its SDKs read, and the service body, the only
 * one with a `code` (as in `model_not_found`). An error with a machine code takes the service body,
 * unless the code is Anthropic's own (`thread_not_found`, in Anthropic's `error.details`).
 */
const RENDER_ERROR: Record<ErrorFamily, (error: GatewayError, requestId: string) => unknown> = {
  standard: (error) => renderError(error, "standard"),
  native: (error) => renderNativeError(error),
  messages: (error, requestId) =>
    renderMessagesError(error, {
      requestId,
      variant:
        error.code === undefined || isAnthropicErrorCode(error.code) ? "anthropic" : "service",
    }),
  // The same three fields as a management success, `data` null.
  management: (error) => ({ ...renderError(error, "balance"), data: null }),
  upload: (error) => renderError(error, "upload"),
};

/** An error as the endpoint's own envelope, with Retry-After when the error says when. */
export function errorResponse(
  family: ErrorFamily,
  thrown: GatewayError,
  requestId: string,
): Response {
  // Typed as a GatewayError, but a foreign error cast to one must not answer without a status.
  const error = toGatewayError(thrown);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const retryAfter = retryAfterHeader(error);
  if (retryAfter !== undefined) headers["retry-after"] = retryAfter;
  const body = RENDER_ERROR[family](error, requestId);
  return new Response(JSON.stringify(body), { status: error.status, headers });
}
