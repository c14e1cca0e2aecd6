import type { Readable } from "node:stream";

/**
 * The next chunk of a paused Node stream, or null at its end: a pull-based reader, so the
 * stream (and whatever feeds it) is only read as fast as the consumer asks. Rejects on the
 * stream's error or when `signal` aborts.
 */
export function nextChunk(stream: Readable, signal: AbortSignal): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const cleanup = () => {
      stream.off("readable", tryRead);
      stream.off("end", onEnd);
      stream.off("error", onError);
      signal.removeEventListener("abort", onAbort);
    };
    function tryRead(): void {
      const chunk = stream.read() as Buffer | null;
      if (chunk !== null) {
        cleanup();
        resolve(chunk);
      } else if (stream.readableEnded) {
        onEnd();
      }
    }
    function onEnd(): void {
      cleanup();
      resolve(null);
    }
    function onError(error: unknown): void {
      cleanup();
      reject(error);
    }
    function onAbort(): void {
      cleanup();
      reject(signal.reason);
    }
    stream.on("readable", tryRead);
    stream.once("end", onEnd);
    stream.once("error", onError);
    signal.addEventListener("abort", onAbort, { once: true });
    tryRead();
  });
}

/** Reads and drops the rest of a stream (its producer goes on; nothing is kept). */
export function discardRest(stream: Readable): void {
  stream.on("error", () => {});
  stream.resume();
}
