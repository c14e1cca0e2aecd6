import { type GatewayError, isGatewayError, toGatewayError } from "@interlingua/errors";
import type { Context } from "hono";
import type { AppEnv } from "../contract/app-env.ts";
import { type ErrorFamily, errorResponse } from "../contract/error-response.ts";
import { logRefused } from "../log/log-refused.ts";
import type { Logger } from "../log/logger.ts";
import { requestLog } from "../log/request-log.ts";

/** First match wins: the chat route under /api/ is a generation endpoint, not management. */
const ENVELOPES: readonly (readonly [(path: string) => boolean, ErrorFamily])[] = [
  [(path) => path.startsWith("/api/v1/"), "standard"],
  [(path) => path === "/api" || path.startsWith("/api/"), "management"],
  [(path) => path.startsWith("/v1beta/"), "native"],
  // POST /v1/models/{model}:generateContent; GET /v1/models itself is standard.
  [(path) => path.startsWith("/v1/models/") && path.includes(":"), "native"],
  [(path) => path === "/v1/messages" || path.startsWith("/v1/messages/"), "messages"],
];

/** The error body family of a path: an endpoint's own (docs/api-reference.md, Errors) or the management API's. */
export const envelopeOf = (path: string): ErrorFamily =>
  ENVELOPES.find(([test]) => test(path))?.[1] ?? "standard";

/**
 * An error in the envelope of the path it answers: for requests refused before (or without) a
 * route of their own — unknown routes, bodies of the wrong type, timeouts, overload.
 */
export const pathErrorResponse = (path: string, error: GatewayError, requestId: string): Response =>
  errorResponse(envelopeOf(path), error, requestId);

/**
 * The app's one error handler: routes and middleware throw a GatewayError to refuse, answered
 * here in the route's envelope (`errors` on the context, else its path's). Anything else thrown
 * is a bug: logged, answered 500 in the same envelope.
 */
export function answerThrown(logger: Logger) {
  return (thrown: Error, c: Context<AppEnv>): Response => {
    const requestId = c.get("requestId");
    const error = toGatewayError(thrown);
    if (!isGatewayError(thrown)) logger.error({ requestId, err: thrown }, "unhandled error");
    else if (thrown.status < 500) {
      logRefused(requestLog(logger, { requestId }), new URL(c.req.url), thrown);
    } else logger.error({ requestId, status: error.status, err: thrown }, "request failed");
    const response = errorResponse(c.get("errors") ?? envelopeOf(c.req.path), error, requestId);
    // The rest of the upload was not read: the connection cannot be reused.
    if (c.get("closeConnection") === true) response.headers.set("connection", "close");
    return response;
  };
}
