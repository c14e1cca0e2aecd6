import { type FrameTap, type SseMessage, scanFrames } from "@interlingua/core-types";

/**
 * Usage rides on message_start and message_delta, the stop reason on message_delta; errors come
 * as `error`. One expression for all three: its single pass over a chunk was twice as fast as
 * separate searches. Quoted, these cannot occur inside a JSON string value (their quotes would
 * be escaped there); a text that merely equals one is needed, so it is decoded needlessly.
 */
const NEEDED = /"(?:message_(?:start|delta)|error)"/g;

const DELTA = '{"type":"content_block_delta"';

/**
 * The messages stream's frames for a usage-and-finish reader. Anthropic names each event on the
 * line that opens its frame, and a content_block_delta holds one delta of one block, by protocol.
 */
export const messagesStreamFrames: FrameTap = {
  scan: scanFrames([NEEDED]),
  deltaFrameStart: "event: content_block_delta",
  plain: ({ data }: SseMessage) => data.startsWith(DELTA),
};
