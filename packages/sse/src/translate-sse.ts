import { type EncodeSseOptions, encodeSseEvent } from "./encode-sse-event.js";
import { createEventParser, type DecodeSseOptions } from "./event-parser.js";
import type { SseEvent } from "./sse-event.js";

/**
 * A synchronous stream stage: `push` turns one input into zero or more outputs, `end` emits
 * what is left. Structurally the `PushTransformer` of `@interlingua/core-types`, which a codec's
 * `stream.decoder()` and `stream.encoder()` return.
 */
export interface PushTransformer<I, O> {
  push(input: I, emit: (output: O) => void): void;
  end(emit: (output: O) => void): void;
}

export type TranslateSseOptions = Pick<DecodeSseOptions, "onComment" | "maxBufferSize"> &
  EncodeSseOptions;

const STREAMING = { stream: true } as const;

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
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  const bytes = new TextEncoder();
  const encodeOptions: EncodeSseOptions =
    options.lineEnding === undefined ? {} : { lineEnding: options.lineEnding };
  let out = "";
  const write = (frame: SseEvent) => {
    out += encodeSseEvent(frame, encodeOptions);
  };
  const translate = (value: X) => encoder.push(value, write);
  const parserOptions: DecodeSseOptions = {};
  if (options.onComment !== undefined) parserOptions.onComment = options.onComment;
  if (options.maxBufferSize !== undefined) parserOptions.maxBufferSize = options.maxBufferSize;
  const parser = createEventParser((event) => decoder.push(event, translate), parserOptions);
  const drain = (controller: TransformStreamDefaultController<Uint8Array>) => {
    if (out === "") return;
    const text = out;
    out = "";
    controller.enqueue(bytes.encode(text));
  };
  return new TransformStream({
    transform(chunk, controller) {
      parser.feed(
        typeof chunk === "string" ? utf8.decode() + chunk : utf8.decode(chunk, STREAMING),
      );
      drain(controller);
    },
    flush(controller) {
      parser.feed(utf8.decode());
      decoder.end(translate);
      encoder.end(write);
      drain(controller);
    },
  });
}
