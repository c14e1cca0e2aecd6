import { createParser, type ParseError } from "eventsource-parser";
import type { SseEvent } from "./sse-event.js";

export type DecodeSseOptions = {
  /** Each comment line's text, without the colon and one leading space (keep-alives land here). */
  onComment?: (comment: string) => void;
  /** Each valid `retry:` value, the moment its line is read. */
  onRetry?: (retry: number) => void;
  /**
   * The most characters one unfinished line plus one unfinished event may hold. Past it the
   * decoder fails (the stream errors) instead of buffering without bound. Unlimited by default,
   * since a single Gemini frame may carry a multi-megabyte inline image.
   */
  maxBufferSize?: number;
};

export type EventParser = { feed(text: string): void };

/**
 * eventsource-parser with its messages reshaped as `SseEvent`s. A `retry:` value rides on the
 * event of its block; one from a block without data, which dispatches nothing, rides on the
 * next event (the parser reports no data-less block end), and reaches `onRetry` either way.
 */
export function createEventParser(
  emit: (event: SseEvent) => void,
  options: DecodeSseOptions = {},
): EventParser {
  let retry: number | undefined;
  return createParser({
    onEvent(message) {
      // Optional fields are set only when present: `{ id: undefined }` is not a valid SseEvent.
      const event: SseEvent = { data: message.data };
      if (message.event !== undefined) event.event = message.event;
      if (message.id !== undefined) event.id = message.id;
      if (retry !== undefined) {
        event.retry = retry;
        retry = undefined;
      }
      emit(event);
    },
    onRetry(value) {
      retry = value;
      options.onRetry?.(value);
    },
    onComment: options.onComment,
    maxBufferSize: options.maxBufferSize,
    onError(error: ParseError) {
      // Unknown fields and bad retry values are ignored, as the standard says; only the buffer
      // guard is fatal, and throwing here fails the feed that overflowed.
      if (error.type === "max-buffer-size-exceeded") throw error;
    },
  });
}
