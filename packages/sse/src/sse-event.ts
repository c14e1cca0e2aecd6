/**
 * One server-sent event. Optional fields are absent rather than undefined, so events compare
 * with deep equality. A plain type rather than a zod inference: it sits on every streamed chunk.
 * Structurally the same as `SseMessage` of `@interlingua/core-types`.
 */
export type SseEvent = {
  /** The `event:` field; absent means the default type ("message"). */
  event?: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The `id:` field of this event's own block (not the stream's last event id). */
  id?: string;
  /** The `retry:` field in milliseconds. */
  retry?: number;
};

/** A comment frame (`: text`): keep-alives, or anything a client must ignore. */
export type SseComment = { comment: string };

/** What the encoder writes. */
export type SseFrame = SseEvent | SseComment;
