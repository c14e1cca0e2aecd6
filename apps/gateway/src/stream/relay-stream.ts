import type { Relay, RelaySink } from "./relay.ts";

/**
 * A relay as a web stream, for `Response.body`. Nothing starts until the first read (or a
 * cancel, which starts it detached so the upstream is still drained for its usage), so a response
 * written straight to the Node server (see `direct-relay.ts`) never starts this one. The
 * high-water mark is 0: a chunk is only queued when no read waits, and then the upstream pauses
 * until the next read.
 */
export function relayReadable(start: (sink: RelaySink) => Relay): ReadableStream<Uint8Array> {
  let relay: Relay | undefined;
  let cancelled = false;
  let sink!: RelaySink;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        sink = {
          write(bytes) {
            if (cancelled) return true;
            controller.enqueue(bytes);
            return (controller.desiredSize ?? 0) >= 0;
          },
          end(last) {
            if (cancelled) return;
            if (last !== undefined) controller.enqueue(last);
            controller.close();
          },
          waiting: () => !cancelled && (controller.desiredSize ?? 0) >= 0,
        };
      },
      pull() {
        if (relay === undefined) relay = start(sink);
        else relay.resume();
      },
      cancel() {
        cancelled = true;
        relay ??= start(sink);
        relay.detach();
      },
    },
    { highWaterMark: 0 },
  );
}
