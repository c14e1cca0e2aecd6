export interface DrainLimits {
  /** Stop draining after this long. */
  maxMs: number;
  /** Stop draining after this many bytes. */
  maxBytes: number;
}

export interface StreamEnd {
  /** The source ran to its end (and, after a disconnect, was drained to it within the limits). */
  complete: boolean;
  clientDisconnected: boolean;
  /** Why reading the source failed, for the log. */
  readError?: string;
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The client-facing end of a response stream. While the client reads, chunks flow with
 * backpressure. When the client goes away the source is not cancelled: it is drained (bounded by
 * time and bytes) so that everything upstream of it — in particular the usage observers — sees the
 * stream to its final usage. `onEnd` is called once in every case.
 */
export function detachOnCancel<T extends Uint8Array>(
  source: ReadableStream<T>,
  limits: DrainLimits,
  onEnd: (end: StreamEnd) => void,
): ReadableStream<T> {
  const reader = source.getReader();
  let ended = false;
  // Set on cancel: a read still pending in `pull` then resolves into a closed controller.
  let detached = false;
  const end = (result: StreamEnd) => {
    if (ended) return;
    ended = true;
    onEnd(result);
  };

  const drain = async () => {
    let bytes = 0;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      reader.cancel("drain time limit").catch(() => {});
    }, limits.maxMs);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return end({ complete: !timedOut, clientDisconnected: true });
        bytes += value.byteLength;
        if (bytes > limits.maxBytes) {
          await reader.cancel("drain byte limit").catch(() => {});
          return end({ complete: false, clientDisconnected: true });
        }
      }
    } catch (error) {
      end({ complete: false, clientDisconnected: true, readError: describe(error) });
    } finally {
      clearTimeout(timer);
    }
  };

  return new ReadableStream<T>(
    {
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (detached) return;
          if (done) {
            controller.close();
            end({ complete: true, clientDisconnected: false });
          } else {
            controller.enqueue(value);
          }
        } catch (error) {
          if (detached) return;
          controller.error(error);
          end({ complete: false, clientDisconnected: false, readError: describe(error) });
        }
      },
      cancel() {
        detached = true;
        void drain();
      },
    },
    { highWaterMark: 0 },
  );
}
