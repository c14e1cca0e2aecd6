import type { StreamEvent, Usage } from "@interlingua/core-types";

/** What a stream said about itself, gathered for the request log and (later) billing. */
export interface StreamOutcome {
  usage?: Usage;
  finishReason?: string;
  error?: { status: number; type: string; message: string };
  /** The decoder itself failed (malformed upstream frames). */
  decodeError?: string;
}

/** Records usage (cumulative: the last one wins), the finish reason and in-stream errors. */
export function recordEvent(outcome: StreamOutcome, event: StreamEvent): void {
  switch (event.type) {
    case "usage":
      outcome.usage = event.usage;
      break;
    case "finish":
      outcome.finishReason = event.finishReason.unified;
      break;
    case "error":
      outcome.error = {
        status: event.error.status,
        type: event.error.type,
        message: event.error.message,
      };
      break;
    default:
  }
}

/** A pass-through stage that records every canonical event it sees. */
export function observeEvents(outcome: StreamOutcome): TransformStream<StreamEvent, StreamEvent> {
  return new TransformStream({
    transform(event, controller) {
      recordEvent(outcome, event);
      controller.enqueue(event);
    },
  });
}
