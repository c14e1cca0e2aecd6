import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";
import { translateSse } from "@interlingua/sse";

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

const PASS: PushTransformer<SseMessage, SseMessage> = {
  push: (message, emit) => emit(message),
  end: () => {},
};

/** The observer as the first stage of `translateSse`, passing on the frames `keep` accepts. */
function observing(
  { decoder, onEvent, onDecodeError }: SseObserver,
  keep: (message: SseMessage) => boolean,
): PushTransformer<SseMessage, SseMessage> {
  let failed = false;
  const guarded = (step: () => void) => {
    if (failed) return;
    try {
      step();
    } catch (error) {
      failed = true;
      onDecodeError(error);
    }
  };
  return {
    push(message, emit) {
      guarded(() => decoder.push(message, onEvent));
      if (keep(message)) emit(message);
    },
    end() {
      guarded(() => decoder.end(onEvent));
    },
  };
}

/**
 * Passes SSE bytes through untouched while the observer reads them. The watching runs in a side
 * stage fed chunk by chunk (one parse, no extra streams on the client's path); `done` settles
 * when the side has seen the end, or the main stream failed.
 */
export function tapSse(observer: SseObserver): {
  stream: TransformStream<Uint8Array, Uint8Array>;
  done: Promise<void>;
} {
  const side = translateSse(
    observing(observer, () => false),
    PASS,
  );
  const writer = side.writable.getWriter();
  // Nothing is ever enqueued on the side's readable; reading it lets its close settle.
  const done = Promise.all([writer.closed, side.readable.pipeTo(new WritableStream())]).then(
    () => {},
    () => {},
  );
  const ignore = () => {};
  // `cancel` (Streams spec, Node >= 21) runs when the main stream fails, so the side ends too;
  // the DOM lib types do not declare it yet.
  const transformer: Transformer<Uint8Array, Uint8Array> & { cancel(reason: unknown): void } = {
    transform(chunk, controller) {
      controller.enqueue(chunk);
      writer.write(chunk).catch(ignore);
    },
    flush() {
      writer.close().catch(ignore);
    },
    cancel(reason) {
      writer.abort(reason).catch(ignore);
    },
  };
  return { stream: new TransformStream(transformer), done };
}

/**
 * SSE bytes re-framed while the observer reads them: each input chunk's whole frames come out
 * re-encoded as one chunk, without those `keep` refuses (a usage chunk the client did not ask
 * for). One parse and one stream stage, instead of decode -> filter -> encode per frame.
 */
export function reframeSse(
  observer: SseObserver,
  keep: (message: SseMessage) => boolean,
): TransformStream<Uint8Array, Uint8Array> {
  return translateSse(observing(observer, keep), PASS);
}
