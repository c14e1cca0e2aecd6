import type { SseMessage } from "@interlingua/core-types";
import type { SameFormat } from "../upstream/upstream-protocols.ts";
import { CHAT_NEEDED, matchesAny } from "./plain-chunk.ts";

/**
 * Whether a same-format upstream frame is a plain content delta: it carries generated text and
 * nothing the tap needs (no usage, finish reason or error). Such frames are nearly every frame of
 * a stream; the watch counts them instead of decoding them (see `watchSse`). Each test accepts
 * only the compact form its provider writes; anything else is decoded as usual, so a frame is
 * never skipped wrongly, only decoded needlessly.
 */
export type PlainDeltaTest = (message: SseMessage) => boolean;

const ANTHROPIC_DELTA = '{"type":"content_block_delta"';

/** A chunk with a delta and nothing the tap needs (`CHAT_NEEDED`, searched as in chunks). */
const chatPlainDelta: PlainDeltaTest = ({ data }) =>
  data.includes('"delta"') && !matchesAny(data, CHAT_NEEDED);

export const PLAIN_DELTA: Record<SameFormat, PlainDeltaTest | undefined> = {
  // Anthropic names the event, and a content_block_delta holds one delta of one block, by protocol.
  messages: ({ data }) => data.startsWith(ANTHROPIC_DELTA),
  chat: chatPlainDelta,
  // Gemini puts its cumulative usage on every frame: each one is decoded.
  native: undefined,
};
