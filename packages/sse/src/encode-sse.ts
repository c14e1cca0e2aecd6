import { type EncodeSseOptions, encodeSseEvent } from "./encode-sse-event.js";
import type { SseFrame } from "./sse-event.js";

/**
 * Events and comments to SSE bytes. Every frame is enqueued as soon as it is written, whole, so
 * a client sees each event the moment it exists and never half of one.
 */
export function encodeSse(options?: EncodeSseOptions): TransformStream<SseFrame, Uint8Array> {
  const bytes = new TextEncoder();
  return new TransformStream({
    transform(frame, controller) {
      controller.enqueue(bytes.encode(encodeSseEvent(frame, options)));
    },
  });
}
