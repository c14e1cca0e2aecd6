import { type GatewayError, isGatewayError } from "@interlingua/errors";
import type { Context } from "hono";
import type { AppEnv } from "../contract/app-env.ts";
import { type ErrorFamily, errorResponse } from "../contract/error-response.ts";
import { logRefused } from "../log/log-refused.ts";
import type { Logger } from "../log/logger.ts";
import { requestLog } from "../log/request-log.ts";
import { thrownRefusal } from "../pipeline/thrown-refusal.ts";

/** First match wins: the chat route under /api/ is a generation endpoint, not management. */
const ENVELOPES: readonly (readonly [(path: string) => boolean, ErrorFamily])[] = [
  [(path) => path.startsWith("/api/v1/"), "standard"],
  [(path) => path === "/api" || path.startsWith("/api/"), "management"],
  [(path) => path.startsWith("/v1beta/"), "native"],
  // POST /v1/models/{model}:generateContent; GET /v1/models itself is standard.
  [(path) => path.startsWith("/v1/models/") && path.includes(":"), "native"],
  [(path) => path === "/v1/messages" || path.startsWith("/v1/messages/"), "messages"],
  // Its route sets the upload body too; this is for what is refused before it (slow bodies).
  [(path) => path === "/v1/uploads/images", "upload"],
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

/** Where a thrown error is answered: the request, and the error body family it gets. */
export interface ThrownAt {
  readonly requestId: string;
  readonly url: URL;
  readonly errors: ErrorFamily;
  /** The generation endpoint's name, for the log line. */
  readonly endpoint?: string;
}

/**
 * The gateway's one answer to a thrown error, for every route (the app's `onError` and the
 * generation endpoints alike): a `GatewayError` is a refusal, logged as one and answered in the
 * route's envelope; anything else thrown is a bug, logged whole and answered 500 (running out
 * of stack on a deeply nested body is the request's fault: 400, see `thrownRefusal`).
 */
export function answerThrown(logger: Logger, thrown: unknown, at: ThrownAt): Response {
  const error = thrownRefusal(thrown);
  const { requestId, endpoint } = at;
  const log = requestLog(logger, endpoint === undefined ? { requestId } : { requestId, endpoint });
  if (isGatewayError(thrown) || error.status < 500) logRefused(log, at.url, error);
  else log.error({ err: thrown }, "unhandled error");
  return errorResponse(at.errors, error, requestId);
}

/**
 * `answerThrown` as the app's error handler, in the route's envelope (`errors` on the context,
 * else its path's).
 */
export function onThrown(logger: Logger) {
  return (thrown: Error, c: Context<AppEnv>): Response => {
    const response = answerThrown(logger, thrown, {
      requestId: c.get("requestId"),
      url: new URL(c.req.url),
      errors: c.get("errors") ?? envelopeOf(c.req.path),
    });
    // The rest of the upload was not read: the connection cannot be reused.
    if (c.get("closeConnection") === true) response.headers.set("connection", "close");
    return response;
  };
}
