import type { Readable } from "node:stream";

export type FirstChunk =
  | { ok: true; stream: ReadableStream<Uint8Array> }
  | { ok: false; error: unknown };

/**
 * Waits for the first chunk of an undici body, then hands back a pull-based web stream that starts
 * with it. Until that chunk exists nothing has been sent to the client, so an upstream that resets
 * or ends before saying anything can still be replaced by the next channel. Pulling one chunk at a
 * time keeps backpressure from the client to the upstream socket; cancel destroys the body so the
 * pooled connection is released.
 */
export async function firstChunkThenStream(body: Readable): Promise<FirstChunk> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  let first: IteratorResult<Uint8Array>;
  try {
    first = await iterator.next();
  } catch (error) {
    return { ok: false, error };
  }
  if (first.done) return { ok: false, error: new Error("upstream stream ended before any data") };
  let pending: Uint8Array | undefined = first.value;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pending !== undefined) {
          controller.enqueue(pending);
          pending = undefined;
          return;
        }
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        body.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { ok: true, stream };
}
