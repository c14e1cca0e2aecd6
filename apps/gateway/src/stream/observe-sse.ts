import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";

/**
 * How a same-format stream is watched: the upstream codec's push decoder turns its frames into
 * canonical events for `onEvent` (usage, finish reason). A decoder failure is reported once to
 * `onDecodeError` and stops the watching, never the client's stream.
 */
export interface SseObserver {
  decoder: PushTransformer<SseMessage, StreamEvent>;
  onEvent: (event: StreamEvent) => void;
  onDecodeError: (error: unknown) => void;
}

export interface SseWatch {
  see(message: SseMessage): void;
  end(): void;
}

/** The observer behind a guard: after its decoder failed once it sees nothing more. */
export function watchSse({ decoder, onEvent, onDecodeError }: SseObserver): SseWatch {
  let failed = false;
  const fail = (error: unknown) => {
    failed = true;
    onDecodeError(error);
  };
  return {
    see(message) {
      if (failed) return;
      try {
        decoder.push(message, onEvent);
      } catch (error) {
        fail(error);
      }
    },
    end() {
      if (failed) return;
      try {
        decoder.end(onEvent);
      } catch (error) {
        fail(error);
      }
    },
  };
}
