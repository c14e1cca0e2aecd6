import type { UpstreamBody } from "../upstream/call-channel.ts";
import { discardBody } from "../upstream/discard-body.ts";

/** How a relayed body ended: read to its end, failed mid-way, or cancelled by the client. */
export interface RelayEnd {
  readonly outcome: "complete" | "upstream-error" | "client-gone";
  readonly bytes: number;
  readonly error?: string;
}

/**
 * Pulls a chunk only when the client asks for one, so nothing is buffered beyond a chunk; a client
 * that leaves destroys the upstream body, closing its connection. `onEnd` is called once.
 */
export function relayAudio(
  body: UpstreamBody,
  onEnd: (end: RelayEnd) => void,
  first?: Uint8Array,
): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // The first chunk, already read to check the reply (speech), goes out first.
  let pending = first;
  let bytes = 0;
  let ended = false;
  const end = (outcome: RelayEnd["outcome"], error?: string) => {
    if (ended) return;
    ended = true;
    onEnd({ outcome, bytes, ...(error === undefined ? {} : { error }) });
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (pending !== undefined) {
          bytes += pending.byteLength;
          controller.enqueue(pending);
          pending = undefined;
          return;
        }
        let next: IteratorResult<Buffer>;
        try {
          next = await chunks.next();
        } catch (error) {
          end("upstream-error", error instanceof Error ? error.message : String(error));
          controller.error(error);
          return;
        }
        if (next.done) {
          end("complete");
          controller.close();
          return;
        }
        bytes += next.value.byteLength;
        controller.enqueue(
          new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength),
        );
      },
      cancel() {
        end("client-gone");
        discardBody(body);
      },
    },
    { highWaterMark: 0 },
  );
}
