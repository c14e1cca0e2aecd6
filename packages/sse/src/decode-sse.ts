import { pushStream } from "@interlingua/core-types/push-stream";
import { createEventParser, type DecodeSseOptions } from "./event-parser.js";
import type { SseEvent } from "./sse-event.js";

const STREAMING = { stream: true } as const;

/**
 * SSE bytes (or text) to events, however the input is split: inside a multi-byte character,
 * between `\r` and `\n`, anywhere. Lines may end in `\n`, `\r\n` or `\r`. Each event is emitted
 * as soon as its blank line arrives. At the end of input an event without its blank line is
 * discarded, as the standard says: it may be a frame cut in half.
 */
export function decodeSse(
  options?: DecodeSseOptions,
): TransformStream<Uint8Array | string, SseEvent> {
  // The parser strips the one leading BOM the standard allows; the decoder must not strip it too.
  const utf8 = new TextDecoder("utf-8", { ignoreBOM: true });
  // The parser calls back synchronously from `feed`: `out` is the emit of the push under way.
  let out: (event: SseEvent) => void = () => {};
  const parser = createEventParser((event) => out(event), options);
  return pushStream<Uint8Array | string, SseEvent>({
    push(chunk, emit) {
      out = emit;
      // A text chunk first flushes bytes held back from a previous byte chunk.
      parser.feed(
        typeof chunk === "string" ? utf8.decode() + chunk : utf8.decode(chunk, STREAMING),
      );
    },
    end(emit) {
      out = emit;
      parser.feed(utf8.decode());
    },
  });
}
