import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";

/**
 * An upstream that repeats its finish (a second `message_delta` with the stop reason, a repeated
 * `finish_reason` chunk) would have the client's encoder say twice that an output ended: only an
 * output's first finish passes; everything else (its later usage included) goes through as is.
 */
export function onceFinished(
  inner: PushTransformer<SseMessage, StreamEvent>,
): PushTransformer<SseMessage, StreamEvent> {
  const finished = new Set<number>();
  const through =
    (emit: (event: StreamEvent) => void) =>
    (event: StreamEvent): void => {
      if (event.type === "finish") {
        const output = event.alternative ?? 0;
        if (finished.has(output)) return;
        finished.add(output);
      }
      emit(event);
    };
  return {
    push: (message, emit) => inner.push(message, through(emit)),
    end: (emit) => inner.end(through(emit)),
  };
}
