import type { IncomingHttpHeaders } from "node:http";
import {
  type Context,
  context,
  isSpanContextValid,
  type Link,
  propagation,
  type TextMapGetter,
  trace,
} from "@opentelemetry/api";

// W3C trace context across the gateway's edges: an incoming `traceparent` continues the
// client's trace, upstream calls and webhook pushes carry the active span's, and background
// work (task steps, webhook pushes) links to the request that submitted it. Extraction and
// injection go through the registered propagator (NodeSDK registers W3C's by default); the
// `traceparent` kept with a task is written and read here, so it needs none.

const headersGetter: TextMapGetter<Headers> = {
  get: (carrier, key) => carrier.get(key) ?? undefined,
  keys: (carrier) => [...carrier.keys()],
};

/** The context an incoming request's headers continue (the active one when they carry none). */
export function parentContext(headers: Headers | IncomingHttpHeaders): Context {
  return headers instanceof Headers
    ? propagation.extract(context.active(), headers, headersGetter)
    : propagation.extract(context.active(), headers);
}

/** `headers`, plus `traceparent` (and `tracestate`) of the active span when there is one. */
export function withTraceHeaders(headers: Record<string, string>): Record<string, string> {
  if (trace.getActiveSpan() === undefined) return headers;
  const carrier: Record<string, string> = { ...headers };
  propagation.inject(context.active(), carrier);
  return carrier;
}

/** The active span as a W3C `traceparent` value, to keep with work done later. */
export function currentTraceparent(): string | undefined {
  const span = trace.getActiveSpan();
  if (span === undefined) return undefined;
  const ids = span.spanContext();
  if (!isSpanContextValid(ids)) return undefined;
  return `00-${ids.traceId}-${ids.spanId}-${(ids.traceFlags & 0xff).toString(16).padStart(2, "0")}`;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A link to the span a kept `traceparent` names (the request that submitted the work). */
export function linkTo(traceparent: string | undefined): Link[] {
  const match = traceparent === undefined ? null : TRACEPARENT.exec(traceparent);
  if (match === null) return [];
  const spanContext = {
    traceId: match[1] ?? "",
    spanId: match[2] ?? "",
    traceFlags: Number.parseInt(match[3] ?? "0", 16),
    isRemote: true,
  };
  return isSpanContextValid(spanContext)
    ? [{ context: spanContext, attributes: { "interlingua.link": "submitted-by" } }]
    : [];
}
