import type { Usage } from "@interlingua/core-types";
import { context, type Span, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

// The OpenTelemetry GenAI semantic conventions on one span per generation call: named
// `{operation} {model}`, CLIENT kind, with the request's model when it starts and the answering
// model, token usage and finish reasons when the call settles (for a stream, at its end). The
// upstream attempts are its children. Without an active request span (tracing off) nothing is
// made.

const TRACER_NAME = "@interlingua/gateway";

export interface GenAiCall {
  /** Runs `work` with this call's span active (upstream attempts become its children). */
  run<T>(work: () => Promise<T>): Promise<T>;
  /** The channel's protocol and the upstream model that answered. */
  /** The answering provider (`gen_ai.provider.name`, its protocol's `vendor`) and model. */
  committed(provider: string, upstreamModel: string): void;
  /** Usage and finish reason as the call settled; ends the span. */
  end(outcome: {
    usage?: Usage | undefined;
    finishReason?: string | undefined;
    error?: string;
  }): void;
}

const NONE: GenAiCall = {
  run: (work) => work(),
  committed: () => {},
  end: () => {},
};

/** A span for one generation call, or a no-op without an active request span. */
/** `operation`: `gen_ai.operation.name` of the client's endpoint (its protocol's `operation`). */
export function startGenAiCall(operation: string, model: string, stream: boolean): GenAiCall {
  if (trace.getActiveSpan() === undefined) return NONE;
  const span: Span = trace.getTracer(TRACER_NAME).startSpan(`${operation} ${model}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      "gen_ai.operation.name": operation,
      "gen_ai.request.model": model,
      "interlingua.stream": stream,
    },
  });
  const active = trace.setSpan(context.active(), span);
  let ended = false;
  return {
    run: (work) => context.with(active, work),
    committed(provider, upstreamModel) {
      span.setAttribute("gen_ai.provider.name", provider);
      span.setAttribute("gen_ai.response.model", upstreamModel);
    },
    end({ usage, finishReason, error }) {
      if (ended) return;
      ended = true;
      if (usage !== undefined && usage.known !== false) {
        span.setAttribute("gen_ai.usage.input_tokens", usage.inputTokens);
        span.setAttribute("gen_ai.usage.output_tokens", usage.outputTokens);
      }
      if (finishReason !== undefined) {
        span.setAttribute("gen_ai.response.finish_reasons", [finishReason]);
      }
      if (error !== undefined) {
        span.setAttribute("error.type", "upstream_error");
        span.setStatus({ code: SpanStatusCode.ERROR, message: error });
      }
      span.end();
    },
  };
}
