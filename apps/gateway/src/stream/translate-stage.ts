import type {
  PushTransformer,
  SseMessage,
  StreamEvent,
  StreamFraming,
} from "@interlingua/core-types";
import { createSseTranslator } from "@interlingua/sse";
import type { RelayStage } from "./relay-stage.ts";
import { MAX_FRAME_CHARS } from "./sse-tap.ts";

export interface TranslateOptions {
  decoder: PushTransformer<SseMessage, StreamEvent>;
  encoder: PushTransformer<StreamEvent, SseMessage>;
  framing: StreamFraming;
  /** Sees every canonical event on its way to the client (usage, finish, errors). */
  onEvent: (event: StreamEvent) => void;
  /** The event the stream ends with when the upstream fails mid-stream. */
  failed: (error: unknown) => StreamEvent;
  /** Frames of `event` from a fresh encoder, for when the stream's own encoder is what threw. */
  fallback: (event: StreamEvent) => SseMessage[];
  /** Text written after the last frames, before the framing closes (the stream's own warnings). */
  closing?: () => string;
}

/**
 * Across formats: upstream SSE -> the upstream codec's push decoder -> canonical events -> the
 * client codec's push encoder -> the client's framing, in one synchronous pass per chunk
 * (`createSseTranslator` of @interlingua/sse). Each chunk's output goes out as one piece.
 */
export function translateStage(options: TranslateOptions): RelayStage {
  const { decoder, encoder, framing, onEvent, failed, fallback } = options;
  const closing = options.closing ?? (() => "");
  const translator = createSseTranslator(decoder, encoder, {
    tap: onEvent,
    frame: framing.frame,
    maxBufferSize: MAX_FRAME_CHARS,
  });
  return {
    push: (chunk) => translator.push(chunk),
    end: () => {
      const last = translator.end();
      return last + closing() + framing.close();
    },
    fail(error) {
      const event = failed(error);
      let last: string;
      try {
        last = translator.abort(event);
      } catch {
        // The tap already saw the event: the translator hands it over before encoding it.
        last = fallback(event).map(framing.frame).join("");
      }
      return last + closing() + framing.close();
    },
    keepAlive: () => framing.keepAlive(),
  };
}
