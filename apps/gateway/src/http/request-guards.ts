import { GatewayError, unavailable } from "@interlingua/errors";
import type { MiddlewareHandler } from "hono";
import { readCredential } from "../auth/credential-sources.ts";
import type { AppEnv } from "../contract/app-env.ts";
import type { GatewayServices } from "../services/gateway-services.ts";
import { InflightBodies } from "./inflight-bodies.ts";
import { pathErrorResponse } from "./route-envelope.ts";

/** The endpoints that take multipart bodies (files): every other body is JSON. */
const MULTIPART_PATHS = new Set(["/v1/uploads/images", "/v1/audio/transcriptions"]);

const isJsonType = (type: string) => {
  const media = (type.split(";")[0] ?? "").trim().toLowerCase();
  return media === "application/json" || /^application\/[\w.+-]*\+json$/.test(media);
};

/** Declared body bytes; undefined for a chunked body, 0 for none. */
function declaredBody(headers: Pick<Headers, "get" | "has">): number | undefined {
  const length = headers.get("content-length");
  if (length !== null) return Number(length) || 0;
  return headers.has("transfer-encoding") ? undefined : 0;
}

/**
 * Whether the request offers an API key anywhere a route reads one. Without one the route's
 * 401 comes first (docs/api-reference.md, Authentication): the body is never read, so its type does not matter.
 */
const carriesKey = (headers: Pick<Headers, "get">, url: string | URL): boolean =>
  readCredential("any", headers, typeof url === "string" ? new URL(url) : url) !== undefined;

/**
 * Checks that run before any route reads a body: a body on a JSON endpoint must say it is JSON
 * (415 otherwise; no Content-Type at all is read as JSON, as clients that forget it expect), and
 * the bytes of bodies read at once stay under `limits.max_inflight_body_bytes` (503 with
 * Retry-After otherwise). Shared by the Hono middleware and the Node route of the generation
 * endpoints.
 */
export class BodyGuards {
  readonly #limits: GatewayServices["config"]["limits"];
  readonly #inflight: InflightBodies;

  constructor(services: GatewayServices) {
    this.#limits = services.config.limits;
    this.#inflight = new InflightBodies(this.#limits.max_inflight_body_bytes);
  }

  /**
   * The bytes counted in flight for the request (0 for none; `release` them once its handler
   * returned), or the error to refuse it with.
   */
  admit(
    path: string,
    headers: Pick<Headers, "get" | "has">,
    url: string | URL,
  ): number | GatewayError {
    const declared = declaredBody(headers);
    if (declared === 0) return 0;
    const type = headers.get("content-type");
    if (
      type !== null &&
      !MULTIPART_PATHS.has(path) &&
      !isJsonType(type) &&
      carriesKey(headers, url)
    ) {
      return new GatewayError({
        status: 415,
        message: `Content-Type must be application/json, not ${type.slice(0, 100)}`,
      });
    }
    const limits = this.#limits;
    // A body over the per-request cap is refused by its reader; count at most that much of it.
    const size = Math.min(declared ?? limits.max_body_bytes, limits.max_body_bytes);
    if (!this.#inflight.admit(size)) {
      return unavailable("too many request bodies are being received at once; retry later", {
        retryAfterSeconds: 1,
      });
    }
    return size;
  }

  release(size: number): void {
    if (size > 0) this.#inflight.release(size);
  }
}

/**
 * `BodyGuards` as Hono middleware: refusals answer in the envelope of the path. Pass the guards
 * the generation listener uses, so one count holds every body in flight.
 */
export function requestGuards(
  services: GatewayServices,
  guards = new BodyGuards(services),
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const admitted = guards.admit(c.req.path, c.req.raw.headers, c.req.url);
    if (admitted instanceof GatewayError) {
      return pathErrorResponse(c.req.path, admitted, c.get("requestId"));
    }
    if (admitted === 0) return next();
    try {
      await next();
    } finally {
      guards.release(admitted);
    }
  };
}
