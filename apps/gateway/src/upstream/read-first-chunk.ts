import type { Readable } from "node:stream";
import { discardBody } from "./discard-body.ts";

/** An upstream body whose first chunk is in hand; the rest waits, paused, for the relay. */
export interface StartedUpstreamBody {
  readonly first: Uint8Array;
  readonly rest: Readable;
}

export type FirstChunk = { ok: true; body: StartedUpstreamBody } | { ok: false; error: unknown };

/** A timeout `failureFromError` classes as one (upstream-failure.ts). */
export const firstByteTimeout = (ms: number): Error =>
  Object.assign(new Error(`no first byte from the upstream within ${ms} ms`), {
    code: "FIRST_BYTE_TIMEOUT",
  });

// Keeps an error that comes before the relay listens from being an uncaught 'error' event; the
// relay reads it off `readable.errored`.
const parked = () => {};

/**
 * Waits for the first chunk of an undici body. Until that chunk exists nothing has been sent to
 * the client, so an upstream that resets or ends before saying anything can still be replaced by
 * the next channel. The body is paused after it, so the socket applies backpressure until the
 * relay takes over.
 */
export function readFirstChunk(body: Readable, withinMs?: number): Promise<FirstChunk> {
  const started = (first: Uint8Array): FirstChunk => {
    body.pause();
    body.on("error", parked);
    return { ok: true, body: { first, rest: body } };
  };
  // Usually the first bytes came with the headers and are already buffered: taken at once, with
  // no listeners to add and remove and no turn of the event loop.
  if (body.errored === null && !body.readableEnded) {
    const ready: Uint8Array | null = body.read();
    if (ready !== null) return Promise.resolve(started(ready));
  }
  return new Promise((resolve) => {
    // The channel's time-to-first-byte bound: an upstream that sent its headers and then nothing.
    const timer =
      withinMs === undefined
        ? undefined
        : setTimeout(
            () => {
              settle({ ok: false, error: firstByteTimeout(withinMs) });
              discardBody(body);
            },
            Math.max(0, withinMs),
          );
    const settle = (result: FirstChunk) => {
      clearTimeout(timer);
      body.off("data", onData).off("end", onEnd).off("error", onError);
      resolve(result);
    };
    const onData = (chunk: Uint8Array) => settle(started(chunk));
    const onEnd = () =>
      settle({ ok: false, error: new Error("upstream stream ended before any data") });
    const onError = (error: unknown) => settle({ ok: false, error });
    body.on("data", onData).once("end", onEnd).once("error", onError);
  });
}
