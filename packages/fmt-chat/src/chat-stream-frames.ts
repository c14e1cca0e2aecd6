import {
  type FrameSearch,
  type FrameTap,
  matchesAnyFrameSearch,
  type SseMessage,
  scanFrames,
} from "@interlingua/core-types";

/**
 * What an OpenAI chunk carries that a reader needs: a finish_reason or usage that is not null
 * (OpenAI writes `"usage":null` on each chunk when asked for the usage chunk; a spaced
 * `"usage": null` is needed), an error (`"error"`, found as `error"` after a quote: a regular
 * expression is much faster here), Groq's usage, the usage chunk's empty choices, or any `event:`
 * line (OpenAI names none; the decoder reads `event: error` as an error whatever its data). Quoted
 * keys cannot occur inside a JSON string value (their quotes would be escaped there).
 */
const NEEDED: readonly FrameSearch[] = [
  /"(?:finish_reason|usage)"(?!:null)/g,
  /(?<=")error"/g,
  { literal: "x_groq", where: (text, at) => text.startsWith('"x_groq"', at - 1) },
  { literal: "[]", where: (text, at) => text.startsWith('"choices":', at - 10) },
  { literal: "event:", where: (text, at) => at === 0 || text.charCodeAt(at - 1) === 0x0a },
];

/**
 * The chat stream's frames for a usage-and-finish reader: each chunk is a frame of one `data:`
 * line (`data: {`, the object, not `[DONE]`, is a delta as far as counting goes), and a plain one
 * is a chunk with a delta and none of the needed keys, searched as in raw bytes. Only the compact
 * `"usage":null` OpenAI writes passes, so a provider that writes spaces is simply decoded.
 */
export const chatStreamFrames: FrameTap = {
  scan: scanFrames(NEEDED),
  deltaFrameStart: "data: {",
  plain: ({ data, event }: SseMessage) =>
    event === undefined && data.includes('"delta"') && !matchesAnyFrameSearch(data, NEEDED),
};
