import { encodeSseEvent } from "./encode-sse-event.js";
import { type StreamPosition, StreamPositionTracker } from "./stream-position.js";

const IDLE = Symbol("idle");

/**
 * SSE bytes passed through untouched, plus a `: keep-alive` comment whenever the source has been
 * silent for `intervalMs`, so proxies and clients do not time the connection out.
 *
 * Bytes are never held back: each read of the source is handed on the moment it resolves. The
 * comment goes only where it cannot change the stream's meaning: between frames as a whole
 * frame (`: keep-alive\n\n`), after a finished line inside a frame as a lone comment line;
 * mid-line, or after a CR whose LF may follow, that tick is skipped. The idle clock runs only
 * while the reader waits (a reader that stopped pulling needs no keep-alive), and its timer is
 * cleared on close, cancel and error.
 */
export function withKeepAlive(
  stream: ReadableStream<Uint8Array>,
  intervalMs: number,
  comment = "keep-alive",
): ReadableStream<Uint8Array> {
  if (!(intervalMs > 0)) throw new RangeError("withKeepAlive: intervalMs must be positive");
  const source = stream.getReader();
  const tracker = new StreamPositionTracker();
  const utf8 = new TextEncoder();
  const fillers: Record<StreamPosition, (eol: "\n" | "\r\n") => Uint8Array | undefined> = {
    frame: (eol) => utf8.encode(encodeSseEvent({ comment }, { lineEnding: eol })),
    line: (eol) =>
      utf8.encode(encodeSseEvent({ comment }, { lineEnding: eol }).slice(0, -eol.length)),
    inside: () => undefined,
  };

  // A read outlives the pull that started it when the idle timer wins the race.
  let pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cancelled = false;
  const idle = () =>
    new Promise<typeof IDLE>((resolve) => {
      timer = setTimeout(resolve, intervalMs, IDLE);
    });
  const stopTimer = () => {
    clearTimeout(timer);
    timer = undefined;
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          pending ??= source.read();
          let next: ReadableStreamReadResult<Uint8Array> | typeof IDLE;
          try {
            next = await Promise.race([pending, idle()]);
          } finally {
            stopTimer();
          }
          if (cancelled) return;
          if (next === IDLE) {
            const filler = fillers[tracker.position](tracker.lineEnding);
            if (filler === undefined) continue;
            controller.enqueue(filler);
            return;
          }
          pending = undefined;
          if (next.done) {
            controller.close();
            return;
          }
          tracker.observe(next.value);
          controller.enqueue(next.value);
          return;
        }
      },
      cancel(reason) {
        cancelled = true;
        stopTimer();
        return source.cancel(reason);
      },
    },
    // Pull only when the reader asks, so nothing queues up ahead of it and the idle clock
    // measures real waiting.
    { highWaterMark: 0 },
  );
}
