import { type GatewayError, renderBalanceError } from "@interlingua/errors";
import type { ErrorStyle } from "../contract/endpoints.ts";
import { errorResponse } from "../contract/error-response.ts";

/** The error body family of a path: an endpoint's own (docs/api-reference.md, Errors) or the management API's. */
export type PathEnvelope = ErrorStyle | "management";

/** First match wins: the chat route under /api/ is a generation endpoint, not management. */
const ENVELOPES: readonly (readonly [(path: string) => boolean, PathEnvelope])[] = [
  [(path) => path.startsWith("/api/v1/"), "standard"],
  [(path) => path === "/api" || path.startsWith("/api/"), "management"],
  [(path) => path.startsWith("/v1beta/"), "native"],
  // POST /v1/models/{model}:generateContent; GET /v1/models itself is standard.
  [(path) => path.startsWith("/v1/models/") && path.includes(":"), "native"],
  [(path) => path === "/v1/messages" || path.startsWith("/v1/messages/"), "messages"],
];

export const envelopeOf = (path: string): PathEnvelope =>
  ENVELOPES.find(([test]) => test(path))?.[1] ?? "standard";

/**
 * An error in the envelope of the path it answers: for requests refused before (or without) a
 * route of their own — unknown routes, bodies of the wrong type, timeouts, overload.
 */
export function pathErrorResponse(path: string, error: GatewayError, requestId: string): Response {
  const envelope = envelopeOf(path);
  if (envelope !== "management") return errorResponse(envelope, error, requestId);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (error.retryAfterSeconds !== undefined)
    headers["retry-after"] = String(error.retryAfterSeconds);
  return new Response(JSON.stringify({ ...renderBalanceError(error), data: null }), {
    status: error.status,
    headers,
  });
}
