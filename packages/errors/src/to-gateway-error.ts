import { internalError } from "./constructors.js";
import { type GatewayError, isGatewayError } from "./gateway-error.js";

/**
 * Whatever was thrown, as something safe to render. A foreign error's message may quote a
 * connection string or a key, so it goes to `cause` (for logs) and never to the client.
 */
export const toGatewayError = (thrown: unknown): GatewayError =>
  isGatewayError(thrown) ? thrown : internalError(undefined, { cause: thrown });
