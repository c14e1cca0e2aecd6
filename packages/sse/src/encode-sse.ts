import { pushStream } from "@interlingua/core-types/push-stream";
import { type EncodeSseOptions, encodeSseEvent } from "./encode-sse-event.js";
import type { SseFrame } from "./sse-event.js";

/**
 * Events and comments to SSE bytes. Every frame is sent as soon as it is written, whole, so a
 * client sees each event the moment it exists and never half of one; frames written in the same
 * tick by a fused chain (`decodeSse -> decode -> encode -> encodeSse`) go out as one chunk.
 */
export function encodeSse(options?: EncodeSseOptions): TransformStream<SseFrame, Uint8Array> {
  return pushStream<SseFrame>(
    {
      push(frame, emit) {
        emit(encodeSseEvent(frame, options));
      },
      end() {},
    },
    { utf8: true },
  );
}
