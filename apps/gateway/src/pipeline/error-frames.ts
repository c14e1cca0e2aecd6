import type { SseMessage, StreamEvent, WireFormat } from "@interlingua/core-types";
import { CODECS } from "../codecs.ts";

/** The event a stream ends with when its upstream fails after the first byte. */
export const upstreamStreamFailed = (error: unknown): StreamEvent => ({
  type: "error",
  error: {
    status: 502,
    type: "bad_gateway",
    message: `upstream stream failed: ${error instanceof Error ? error.message : String(error)}`,
  },
});

/** One canonical event as the frames a client of `format` reads (its codec decides the shape). */
export async function framesOf(format: WireFormat, event: StreamEvent): Promise<SseMessage[]> {
  const frames: SseMessage[] = [];
  const source = new ReadableStream<StreamEvent>({
    start(controller) {
      controller.enqueue(event);
      controller.close();
    },
  });
  await source
    .pipeThrough(CODECS[format].stream.encode())
    .pipeTo(new WritableStream({ write: (f) => void frames.push(f) }));
  return frames;
}
