import type { SseEvent } from "./sse-event.js";
import {
  createSseTranslator,
  type PushTransformer,
  type SseTranslatorOptions,
} from "./sse-translator.js";

/** `onComment`, `maxBufferSize` and `lineEnding`: the translator options a byte stream takes. */
export type TranslateSseOptions = Omit<SseTranslatorOptions<never>, "tap" | "frame">;

/**
 * SSE bytes in one format to SSE bytes in another, in a single TransformStream: each input chunk
 * is parsed, pushed through `decoder` then `encoder`, and its output frames are enqueued as one
 * `Uint8Array` (none when it produced nothing). Byte for byte the same as
 * `decodeSse -> decode -> encode -> encodeSse`, without three stream hops per event.
 * At the end of input the decoder, then the encoder, emit what they hold. A throw errors the stream.
 */
export function translateSse<X>(
  decoder: PushTransformer<SseEvent, X>,
  encoder: PushTransformer<X, SseEvent>,
  options: TranslateSseOptions = {},
): TransformStream<Uint8Array | string, Uint8Array> {
  const translator = createSseTranslator(decoder, encoder, options);
  const bytes = new TextEncoder();
  const enqueue = (text: string, controller: TransformStreamDefaultController<Uint8Array>) => {
    if (text !== "") controller.enqueue(bytes.encode(text));
  };
  return new TransformStream({
    transform(chunk, controller) {
      enqueue(translator.push(chunk), controller);
    },
    flush(controller) {
      enqueue(translator.end(), controller);
    },
  });
}
