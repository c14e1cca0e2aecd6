import {
  type Attributes,
  context,
  isSpanContextValid,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";

// OpenTelemetry through its API only: without a registered SDK every call below is a no-op
// (a shared non-recording span), so the gateway carries no exporter. An operator registers an
// SDK before the gateway starts (`node --import ./otel.mjs`, see the README, "Traces").

const TRACER_NAME = "@interlingua/gateway";

const tracer = () => trace.getTracer(TRACER_NAME);

/** The request's root span (SERVER kind); ended by the caller. */
export function startRequestSpan(method: string, attributes: Attributes): Span {
  return tracer().startSpan(method, { kind: SpanKind.SERVER, attributes });
}

/** Runs `run` with `span` as the active span (child spans and log lines see it). */
export function withSpan<T>(span: Span, run: () => T): T {
  return context.with(trace.setSpan(context.active(), span), run);
}

/**
 * `run` inside a child span of the active one, named `name`; the span ends when the promise
 * settles, with an error status when it rejects (the rejection passes on unchanged). Without an
 * active span (tracing off, or no SDK registered) `run` runs as it is: no span, no allocation;
 * `root` starts one anyway (background work that no request started).
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  run: () => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
  root = false,
): Promise<T> {
  if (!root && trace.getActiveSpan() === undefined) return run();
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await run();
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The client span of one upstream attempt. */
export const upstreamSpan = <T>(channel: string, protocol: string, run: () => Promise<T>) =>
  inSpan(
    "upstream",
    { "interlingua.channel": channel, "interlingua.protocol": protocol },
    run,
    SpanKind.CLIENT,
  );

/** `trace_id` and `span_id` of the active span for a log line; empty without a recording SDK. */
export function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (span === undefined) return {};
  const ids = span.spanContext();
  return isSpanContextValid(ids) ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
}
