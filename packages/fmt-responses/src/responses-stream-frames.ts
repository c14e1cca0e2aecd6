import type { FrameTap, SseMessage } from "@interlingua/core-types";

/**
 * The usage and the finish ride on the terminal events (response.completed, .incomplete,
 * .failed), errors on `error` (and on .failed), named by the data's `type` or, without one, by
 * the frame's `event:` line (the decoder reads either). Quoted, these cannot occur inside a JSON
 * string value (their quotes would be escaped there); a text that merely equals one is needed,
 * so it is decoded needlessly, never skipped wrongly.
 */
const NEEDED = /(?:"|event: ?)(?:response\.(?:completed|incomplete|failed)|error)["\r\n]/g;

const TEXT_DELTA = '{"type":"response.output_text.delta"';

/**
 * The Responses stream's frames for a usage-and-finish reader. OpenAI names each event on the
 * line that opens its frame; text deltas (by far the most frames) are counted by it. Other deltas
 * (reasoning, tool arguments) are not needed either, but are neither counted nor called plain.
 */
export const responsesStreamFrames: FrameTap = {
  scan(text) {
    // The first match at or after `from`, remembered: a later `from` at or before it costs nothing.
    let found = -1;
    let done = false;
    return (from) => {
      if (done) return text.length;
      if (found >= from) return found;
      NEEDED.lastIndex = from;
      const at = NEEDED.exec(text)?.index ?? -1;
      if (at < 0) {
        done = true;
        return text.length;
      }
      found = at;
      return at;
    };
  },
  deltaFrameStart: "event: response.output_text.delta",
  plain: ({ data }: SseMessage) => data.startsWith(TEXT_DELTA),
};
