import { SpanStatusCode } from "@opentelemetry/api";
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../http/app-env.ts";
import { GENERATION_ROUTES } from "../http/endpoints.ts";
import { filterRelay } from "../stream/direct-relay.ts";
import type { GatewayMetrics } from "./metrics.ts";
import { startRequestSpan, withSpan } from "./tracing.ts";

/** The endpoint format of a route pattern, for the `format` label ("" for the rest). */
const ROUTE_FORMATS = new Map<string, string>([
  ...GENERATION_ROUTES.map(({ path, endpoint }) => [path, endpoint.format] as const),
  ["/v1/videos/generations", "videos"],
  ["/v1/videos/:task_id/remix", "remix"],
  ["/v1/images/generations", "images"],
  ["/v1/tasks/:task_id", "tasks"],
  ["/v1/images/generations/:task_id", "tasks"],
  ["/v1/audio/speech", "speech"],
  ["/v1/audio/transcriptions", "transcriptions"],
  ["/v1/uploads/images", "uploads"],
]);

/** Requests no route matched share one label value (raw paths would be unbounded). */
const UNMATCHED = "unmatched";

const keep = <T>(value: T) => value;

/**
 * The request's span (when tracing is on: child spans and log lines of the request hang under
 * it) and its metrics (when metrics are on): count, time to the response, route pattern,
 * format and status. Mounted first, so it sees every answer, refusals and not-found included.
 */
export function observeRequests(
  metrics: GatewayMetrics | undefined,
  tracing: boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const method = c.req.method;
    const span = tracing
      ? startRequestSpan(method, { "http.request.method": method, "url.path": c.req.path })
      : undefined;
    try {
      await (span === undefined ? next() : withSpan(span, next));
    } finally {
      // The last route matched is the handler's (middleware is registered first), even when a
      // guard answered before it ran; only middleware matched: no route.
      const pattern = routePath(c, -1);
      const route = pattern === "*" || pattern === "/*" || pattern === "" ? UNMATCHED : pattern;
      const status = c.res.status;
      if (metrics !== undefined) {
        const stream = filterRelay(c.res, keep, keep);
        const seconds = (performance.now() - started) / 1000;
        metrics.request(route, method, ROUTE_FORMATS.get(route) ?? "", status, seconds, stream);
      }
      if (span !== undefined) {
        span.updateName(`${method} ${route}`);
        span.setAttribute("http.route", route);
        span.setAttribute("http.response.status_code", status);
        span.setAttribute("interlingua.request_id", c.get("requestId") ?? "");
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    }
  };
}
