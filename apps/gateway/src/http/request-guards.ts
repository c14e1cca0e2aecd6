import { GatewayError, unavailable } from "@interlingua/errors";
import type { MiddlewareHandler } from "hono";
import type { GatewayServices } from "../services.ts";
import type { AppEnv } from "./app-env.ts";
import { InflightBodies } from "./inflight-bodies.ts";
import { pathErrorResponse } from "./route-envelope.ts";

/** The endpoints that take multipart bodies (files): every other body is JSON. */
const MULTIPART_PATHS = new Set(["/v1/uploads/images", "/v1/audio/transcriptions"]);

const isJsonType = (type: string) => {
  const media = (type.split(";")[0] ?? "").trim().toLowerCase();
  return media === "application/json" || /^application\/[\w.+-]*\+json$/.test(media);
};

/** Declared body bytes; undefined for a chunked body, 0 for none. */
function declaredBody(headers: Headers): number | undefined {
  const length = headers.get("content-length");
  if (length !== null) return Number(length) || 0;
  return headers.has("transfer-encoding") ? undefined : 0;
}

/**
 * Checks that run before any route reads a body: a body on a JSON endpoint must say it is JSON
 * (415 otherwise; no Content-Type at all is read as JSON, as clients that forget it expect), and
 * the bytes of bodies read at once stay under `limits.max_inflight_body_bytes` (503 with
 * Retry-After otherwise). Both answer in the envelope of the path.
 */
export function requestGuards(services: GatewayServices): MiddlewareHandler<AppEnv> {
  const limits = services.config.limits;
  const inflight = new InflightBodies(limits.max_inflight_body_bytes);
  return async (c, next) => {
    const headers = c.req.raw.headers;
    const declared = declaredBody(headers);
    if (declared === 0) return next();
    const path = c.req.path;
    const type = headers.get("content-type");
    if (type !== null && !MULTIPART_PATHS.has(path) && !isJsonType(type)) {
      const error = new GatewayError({
        status: 415,
        message: `Content-Type must be application/json, not ${type.slice(0, 100)}`,
      });
      return pathErrorResponse(path, error, c.get("requestId"));
    }
    // A body over the per-request cap is refused by its reader; count at most that much of it.
    const size = Math.min(declared ?? limits.max_body_bytes, limits.max_body_bytes);
    if (!inflight.admit(size)) {
      const error = unavailable("too many request bodies are being received at once; retry later", {
        retryAfterSeconds: 1,
      });
      return pathErrorResponse(path, error, c.get("requestId"));
    }
    try {
      await next();
    } finally {
      inflight.release(size);
    }
  };
}
