import type { PushTransformer } from "@interlingua/core-types";
import { type EncodeSseOptions, encodeSseEvent } from "./encode-sse-event.js";
import { createEventParser, type DecodeSseOptions } from "./event-parser.js";
import type { SseEvent } from "./sse-event.js";

/**
 * A synchronous stream stage, declared once in `@interlingua/core-types` (a codec's
 * `stream.decoder()` and `stream.encoder()` return one); re-exported here, where it was first.
 */
export type { PushTransformer };

export type SseTranslatorOptions<X> = Pick<DecodeSseOptions, "onComment" | "maxBufferSize"> &
  EncodeSseOptions & {
    /** Sees every value between decoder and encoder (a gateway reads usage and errors here). */
    tap?: (value: X) => void;
    /** Writes one output frame; `encodeSseEvent` by default (another framing, e.g. a JSON array). */
    frame?: (event: SseEvent) => string;
  };

/** SSE text in one format to SSE text in another, one call per input chunk, nothing held back. */
export interface SseTranslator<X> {
  /** The output for one input chunk: every frame it completed, or "" when it completed none. */
  push(chunk: Uint8Array | string): string;
  /** End of input: the decoder's, then the encoder's last frames. */
  end(): string;
  /**
   * The input failed instead of ending: `last` (an error value, say) goes straight to the encoder,
   * which then ends; the decoder's partial state is discarded.
   */
  abort(last: X): string;
}

const STREAMING = { stream: true } as const;

/**
 * The synchronous core of `translateSse`: input bytes (or text) are parsed into SSE events, each
 * pushed through `decoder` then `encoder`, and the output frames of one chunk are returned as one
 * string. No stream machinery, so a server can write the text straight to its socket; a throw
 * from either stage propagates to the caller of `push`/`end`.
 */
export function createSseTranslator<X>(
  decoder: PushTransformer<SseEvent, X>,
  encoder: PushTransformer<X, SseEvent>,
  options: SseTranslatorOptions<X> = {},
): SseTranslator<X> {
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  const encodeOptions: EncodeSseOptions =
    options.lineEnding === undefined ? {} : { lineEnding: options.lineEnding };
  const frame = options.frame ?? ((event: SseEvent) => encodeSseEvent(event, encodeOptions));
  const tap = options.tap;
  let out = "";
  const write = (event: SseEvent) => {
    out += frame(event);
  };
  const translate =
    tap === undefined
      ? (value: X) => encoder.push(value, write)
      : (value: X) => {
          tap(value);
          encoder.push(value, write);
        };
  const parserOptions: DecodeSseOptions = {};
  if (options.onComment !== undefined) parserOptions.onComment = options.onComment;
  if (options.maxBufferSize !== undefined) parserOptions.maxBufferSize = options.maxBufferSize;
  const parser = createEventParser((event) => decoder.push(event, translate), parserOptions);
  const take = () => {
    const text = out;
    out = "";
    return text;
  };
  return {
    push(chunk) {
      parser.feed(
        typeof chunk === "string" ? utf8.decode() + chunk : utf8.decode(chunk, STREAMING),
      );
      return take();
    },
    end() {
      parser.feed(utf8.decode());
      decoder.end(translate);
      encoder.end(write);
      return take();
    },
    abort(last) {
      translate(last);
      encoder.end(write);
      return take();
    },
  };
}
