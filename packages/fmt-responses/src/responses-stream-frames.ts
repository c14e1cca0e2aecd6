import { type FrameTap, type SseMessage, scanFrames } from "@interlingua/core-types";

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
  scan: scanFrames([NEEDED]),
  deltaFrameStart: "event: response.output_text.delta",
  plain: ({ data }: SseMessage) => data.startsWith(TEXT_DELTA),
};
