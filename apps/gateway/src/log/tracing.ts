import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  type Link,
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

/**
 * The request's span (SERVER kind), a child of `parent` (the trace an incoming `traceparent`
 * continues); ended by the caller.
 */
export function startRequestSpan(method: string, attributes: Attributes, parent?: Context): Span {
  return tracer().startSpan(method, { kind: SpanKind.SERVER, attributes }, parent);
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
  links: Link[] = [],
): Promise<T> {
  if (!root && trace.getActiveSpan() === undefined) return run();
  return tracer().startActiveSpan(name, { kind, attributes, links }, async (span) => {
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

/**
 * Why spans would go nowhere although tracing is on, or undefined: an SDK registered a tracer
 * provider through another copy of `@opentelemetry/api` whose version this one does not accept
 * (the globals are shared per major version, but a minor older than ours is refused), so every
 * span here is a no-op. Said once at startup.
 */
export function tracingMismatch(): string | undefined {
  const global = (globalThis as Record<symbol, { version?: string; trace?: unknown } | undefined>)[
    Symbol.for("opentelemetry.js.api.1")
  ];
  if (global?.trace === undefined) return undefined;
  const provider = trace.getTracerProvider() as { getDelegate?: () => object };
  const delegate = provider.getDelegate?.() ?? provider;
  if (delegate.constructor.name !== "NoopTracerProvider") return undefined;
  return `an OpenTelemetry SDK registered @opentelemetry/api ${global.version ?? "?"}, which the gateway's copy does not accept: install one version of @opentelemetry/api for both (the gateway takes any 1.x as a peer)`;
}
