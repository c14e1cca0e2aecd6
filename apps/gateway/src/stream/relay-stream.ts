import type { Relay, RelaySink } from "./relay.ts";

/**
 * Starts on first read, so a response written directly never starts it; a cancel starts it
 * detached so the upstream is still drained for its usage. High-water mark 0: the upstream
 * pauses until the next read.
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
