import { pushStream } from "@interlingua/core-types/push-stream";
import type { SseEvent } from "./sse-event.js";
import {
  createSseTranslator,
  type PushTransformer,
  type SseTranslatorOptions,
} from "./sse-translator.js";

/** `onComment`, `maxBufferSize` and `lineEnding`: the translator options a byte stream takes. */
export type TranslateSseOptions = Omit<SseTranslatorOptions<never>, "tap" | "frame">;

/**
 * SSE bytes in one format to SSE bytes in another, in a single stream: each input chunk is
 * parsed, pushed through `decoder` then `encoder`, and its output frames are enqueued as one
 * `Uint8Array` (none when it produced nothing). Byte for byte the same as
 * `decodeSse -> decode -> encode -> encodeSse`, without three stream hops per event.
 * At the end of input the decoder, then the encoder, emit what they hold. A throw errors the stream.
 * A push stream (core-types push-stream.ts), not a TransformStream: it costs a third as much to
 * build, which is most of a short stream's cost, and fuses with push streams piped after it.
 */
export function translateSse<X>(
  decoder: PushTransformer<SseEvent, X>,
  encoder: PushTransformer<X, SseEvent>,
  options: TranslateSseOptions = {},
): TransformStream<Uint8Array | string, Uint8Array> {
  const translator = createSseTranslator(decoder, encoder, options);
  return pushStream<Uint8Array | string>(
    {
      push(chunk, emit) {
        emit(translator.push(chunk));
      },
      end(emit) {
        emit(translator.end());
      },
    },
    { utf8: true },
  );
}
