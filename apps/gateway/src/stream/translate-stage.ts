import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";
import type { ClientFraming } from "./client-framing.ts";
import type { RelayStage } from "./relay-stage.ts";
import { createSseSplitter } from "./sse-splitter.ts";

const STREAMING = { stream: true } as const;

export interface TranslateOptions {
  decoder: PushTransformer<SseMessage, StreamEvent>;
  encoder: PushTransformer<StreamEvent, SseMessage>;
  framing: ClientFraming;
  /** Sees every canonical event on its way to the client (usage, finish, errors). */
  onEvent: (event: StreamEvent) => void;
  /** The event the stream ends with when the upstream fails mid-stream. */
  failed: (error: unknown) => StreamEvent;
  /** Frames of `event` from a fresh encoder, for when the stream's own encoder is what threw. */
  fallback: (event: StreamEvent) => SseMessage[];
}

/**
 * Across formats: upstream SSE text -> the upstream codec's push decoder -> canonical events ->
 * the client codec's push encoder -> the client's framing, all in one synchronous pass per chunk.
 * Each chunk's output goes out as one piece (one write, not one per frame).
 */
export function translateStage(options: TranslateOptions): RelayStage {
  const { decoder, encoder, framing, onEvent, failed, fallback } = options;
  const utf8 = new TextDecoder();
  let out = "";
  const write = (message: SseMessage) => {
    out += framing.frame(message);
  };
  const translate = (event: StreamEvent) => {
    onEvent(event);
    encoder.push(event, write);
  };
  const splitter = createSseSplitter((message) => {
    if (message !== undefined) decoder.push(message, translate);
  });
  const take = () => {
    const text = out;
    out = "";
    return text;
  };
  return {
    push(chunk) {
      splitter.feed(utf8.decode(chunk, STREAMING));
      return take();
    },
    end() {
      splitter.feed(utf8.decode());
      decoder.end(translate);
      encoder.end(write);
      return take() + framing.close();
    },
    fail(error) {
      const event = failed(error);
      const before = out;
      try {
        translate(event);
        encoder.end(write);
      } catch {
        out = before;
        for (const message of fallback(event)) write(message);
      }
      return take() + framing.close();
    },
    keepAlive: () => framing.keepAlive(),
  };
}
