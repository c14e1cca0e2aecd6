import type { SseMessage } from "@interlingua/core-types";
import type { UpstreamProtocolSpec } from "../upstream/upstream-protocols.ts";

/**
 * Whether a same-format upstream frame is a plain content delta: it carries generated text and
 * nothing the tap needs (no usage, finish reason or error). Such frames are nearly every frame of
 * a stream; the tap measures them instead of decoding them (see `watchSse`). Each test accepts
 * only the compact form its provider writes; anything else is decoded as usual, so a frame is
 * never skipped wrongly, only decoded needlessly.
 */
export type PlainDeltaTest = (message: SseMessage) => boolean;

const ANTHROPIC_DELTA = '{"type":"content_block_delta"';

/** Every `"finish_reason"` key of the chunk is followed by `:null`. */
function noFinishReason(data: string): boolean {
  for (let at = data.indexOf('"finish_reason"'); at >= 0; ) {
    if (!data.startsWith(":null", at + 15)) return false;
    at = data.indexOf('"finish_reason"', at + 15);
  }
  return true;
}

/** A quoted key cannot occur inside a JSON string value (its quotes would be escaped there). */
const chatPlainDelta: PlainDeltaTest = ({ data }) =>
  data.includes('"delta"') &&
  !data.includes('"error"') &&
  (!data.includes('"usage"') || data.includes('"usage":null')) &&
  !data.includes('"x_groq"') &&
  noFinishReason(data);

export const PLAIN_DELTA: Record<UpstreamProtocolSpec["format"], PlainDeltaTest | undefined> = {
  // Anthropic names the event, and a content_block_delta holds one delta of one block, by protocol.
  messages: ({ data }) => data.startsWith(ANTHROPIC_DELTA),
  chat: chatPlainDelta,
  // Gemini puts its cumulative usage on every frame: each one is decoded.
  native: undefined,
};
