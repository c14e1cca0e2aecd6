import { type BalanceErrorBody, renderBalanceError } from "./balance-envelope.js";
import type { GatewayError } from "./gateway-error.js";
import {
  type MessagesErrorBody,
  type MessagesErrorOptions,
  renderMessagesError,
} from "./messages-envelope.js";
import { type NativeErrorBody, renderNativeError } from "./native-envelope.js";
import { renderStandardError, type StandardErrorBody } from "./standard-envelope.js";
import { renderUploadError, type UploadErrorBody } from "./upload-envelope.js";

export interface ErrorBodies {
  standard: StandardErrorBody;
  messages: MessagesErrorBody;
  native: NativeErrorBody;
  upload: UploadErrorBody;
  balance: BalanceErrorBody;
}
export type ErrorEnvelope = keyof ErrorBodies;
export const errorEnvelopes = ["standard", "messages", "native", "upload", "balance"] as const;

export type RenderErrorOptions = MessagesErrorOptions;

const renderers: {
  [E in ErrorEnvelope]: (error: GatewayError, options: RenderErrorOptions) => ErrorBodies[E];
} = {
  standard: (error) => renderStandardError(error),
  messages: (error, options) => renderMessagesError(error, options),
  native: (error) => renderNativeError(error),
  upload: (error) => renderUploadError(error),
  balance: (error) => renderBalanceError(error),
};

/** The body of `error` in the envelope an endpoint group uses (docs/api-reference.md, Errors). */
export const renderError = <E extends ErrorEnvelope>(
  error: GatewayError,
  envelope: E,
  options: RenderErrorOptions = {},
): ErrorBodies[E] => renderers[envelope](error, options);
