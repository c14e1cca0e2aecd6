import { type BalanceErrorBody, renderBalanceError } from "./balance-envelope.js";
import type { GatewayError } from "./gateway-error.js";
import { renderStandardError, type StandardErrorBody } from "./standard-envelope.js";
import { renderUploadError, type UploadErrorBody } from "./upload-envelope.js";

export interface ErrorBodies {
  standard: StandardErrorBody;
  upload: UploadErrorBody;
  balance: BalanceErrorBody;
}
export type ErrorEnvelope = keyof ErrorBodies;
export const errorEnvelopes = ["standard", "upload", "balance"] as const;

const renderers: {
  [E in ErrorEnvelope]: (error: GatewayError) => ErrorBodies[E];
} = {
  standard: (error) => renderStandardError(error),
  upload: (error) => renderUploadError(error),
  balance: (error) => renderBalanceError(error),
};

/**
 * The body of `error` in the envelope an endpoint group uses (docs/api-reference.md, Errors). The
 * protocols' own envelopes are their packages': `@interlingua/fmt-messages`' `renderMessagesError`
 * and `@interlingua/fmt-native`' `renderNativeError`.
 */
export const renderError = <E extends ErrorEnvelope>(
  error: GatewayError,
  envelope: E,
): ErrorBodies[E] => renderers[envelope](error);
