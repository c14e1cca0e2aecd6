import { type BalanceErrorBody, renderBalanceError } from "./balance-envelope.js";
import type { GatewayError } from "./gateway-error.js";
import { type NativeErrorBody, renderNativeError } from "./native-envelope.js";
import { renderStandardError, type StandardErrorBody } from "./standard-envelope.js";
import { renderUploadError, type UploadErrorBody } from "./upload-envelope.js";

export interface ErrorBodies {
  standard: StandardErrorBody;
  native: NativeErrorBody;
  upload: UploadErrorBody;
  balance: BalanceErrorBody;
}
export type ErrorEnvelope = keyof ErrorBodies;
export const errorEnvelopes = ["standard", "native", "upload", "balance"] as const;

const renderers: {
  [E in ErrorEnvelope]: (error: GatewayError) => ErrorBodies[E];
} = {
  standard: (error) => renderStandardError(error),
  native: (error) => renderNativeError(error),
  upload: (error) => renderUploadError(error),
  balance: (error) => renderBalanceError(error),
};

/**
 * The body of `error` in the envelope an endpoint group uses (docs/api-reference.md, Errors). The
 * messages envelope is `@interlingua/fmt-messages`' `renderMessagesError`.
 */
export const renderError = <E extends ErrorEnvelope>(
  error: GatewayError,
  envelope: E,
): ErrorBodies[E] => renderers[envelope](error);
