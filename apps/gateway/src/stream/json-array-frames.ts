import type { SseMessage } from "@interlingua/core-types";

const encoder = new TextEncoder();

/**
 * Frames a native stream as the JSON array that streamGenerateContent returns without `alt=sse`:
 * `[` first element `,\r\n` next element ... `]`. Each element is flushed as soon as it arrives,
 * so the array streams; an empty stream is `[]`.
 */
export function jsonArrayFrames(): TransformStream<SseMessage, Uint8Array> {
  let opened = false;
  return new TransformStream({
    transform(message, controller) {
      controller.enqueue(encoder.encode((opened ? ",\r\n" : "[") + message.data));
      opened = true;
    },
    flush(controller) {
      controller.enqueue(encoder.encode(opened ? "]" : "[]"));
    },
  });
}
