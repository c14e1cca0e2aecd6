import type { IncomingHttpHeaders } from "node:http";
import { type Span, SpanStatusCode } from "@opentelemetry/api";
import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import type { AppEnv } from "../contract/app-env.ts";
import { GENERATION_ROUTES } from "../contract/endpoints.ts";
import { parentContext } from "../log/trace-context.ts";
import { startRequestSpan, withSpan } from "../log/tracing.ts";
import { RelayResponse } from "../stream/direct-relay.ts";
import type { GatewayMetrics } from "./metrics.ts";

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
export const UNMATCHED = "unmatched";

/** One request under observation: when it started, and its span (tracing on). */
export interface ObservedRequest {
  readonly started: number;
  readonly span: Span | undefined;
}

/**
 * The request's span (when tracing is on: child spans and log lines of the request hang under
 * it) and its metrics (when metrics are on): count, time to the response, route pattern,
 * format and status. Shared by the Hono middleware and the Node route of the generation
 * endpoints.
 */
export class RequestObserver {
  private readonly metrics: GatewayMetrics | undefined;
  private readonly tracing: boolean;

  constructor(metrics: GatewayMetrics | undefined, tracing: boolean) {
    this.metrics = metrics;
    this.tracing = tracing;
  }

  /** `headers`: an incoming `traceparent` among them continues the client's trace. */
  start(method: string, path: string, headers?: Headers | IncomingHttpHeaders): ObservedRequest {
    const span = this.tracing
      ? startRequestSpan(
          method,
          { "http.request.method": method, "url.path": path },
          headers === undefined ? undefined : parentContext(headers),
        )
      : undefined;
    return { started: performance.now(), span };
  }

  /** Runs the request's handling with its span active. */
  run<T>(observed: ObservedRequest, handle: () => T): T {
    return observed.span === undefined ? handle() : withSpan(observed.span, handle);
  }

  /** `route` is the route pattern matched (`UNMATCHED` for none); `stream`: a relayed reply. */
  end(
    observed: ObservedRequest,
    method: string,
    route: string,
    status: number,
    stream: boolean,
    requestId: string,
  ): void {
    if (this.metrics !== undefined) {
      const seconds = (performance.now() - observed.started) / 1000;
      this.metrics.request(route, method, ROUTE_FORMATS.get(route) ?? "", status, seconds, stream);
    }
    const span = observed.span;
    if (span !== undefined) {
      span.updateName(`${method} ${route}`);
      span.setAttribute("http.route", route);
      span.setAttribute("http.response.status_code", status);
      span.setAttribute("interlingua.request_id", requestId);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  }
}

/** `RequestObserver` as Hono middleware, mounted first: it sees every answer, refusals and not-found included. */
export function observeRequests(
  metrics: GatewayMetrics | undefined,
  tracing: boolean,
): MiddlewareHandler<AppEnv> {
  const observer = new RequestObserver(metrics, tracing);
  return async (c, next) => {
    const method = c.req.method;
    const observed = observer.start(method, c.req.path, c.req.raw.headers);
    try {
      await observer.run(observed, next);
    } finally {
      // The last route matched is the handler's (middleware is registered first), even when a
      // guard answered before it ran; only middleware matched: no route.
      const pattern = routePath(c, -1);
      const route = pattern === "*" || pattern === "/*" || pattern === "" ? UNMATCHED : pattern;
      const res = c.res;
      const stream = res instanceof RelayResponse;
      observer.end(observed, method, route, res.status, stream, c.get("requestId") ?? "");
    }
  };
}
