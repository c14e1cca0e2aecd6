import type { SseFrame } from "./sse-event.js";
import { sseEventProblem } from "./sse-event-problem.js";

export type SseLineEnding = "\n" | "\r\n";

export type EncodeSseOptions = {
  /** `\n` (the default) or `\r\n`, for peers that expect Gemini-style framing. */
  lineEnding?: SseLineEnding;
};

const LINE_BREAK = /\r\n|\r|\n/;

/** Each line of `text` as its own `prefix` line; JSON payloads take the single-line path. */
function linesOf(prefix: string, text: string, eol: string): string {
  // Two native scans beat a regex test here: this runs on every frame of every stream.
  if (text.indexOf("\n") < 0 && text.indexOf("\r") < 0) return prefix + text + eol;
  let out = "";
  for (const line of text.split(LINE_BREAK)) out += prefix + line + eol;
  return out;
}

/**
 * One frame as wire text, ending with its blank line: `event:`, `id:`, `retry:` when present,
 * then one `data:` line per line of data; a comment becomes one `: ` line per line.
 * Throws a TypeError for a value SSE cannot carry (see `sseEventProblem`).
 */
export function encodeSseEvent(frame: SseFrame, options?: EncodeSseOptions): string {
  const eol = options?.lineEnding ?? "\n";
  if ("comment" in frame) return linesOf(": ", frame.comment, eol) + eol;
  const problem = sseEventProblem(frame);
  if (problem !== undefined) throw new TypeError(problem);
  let out = "";
  if (frame.event !== undefined) out += "event: " + frame.event + eol;
  if (frame.id !== undefined) out += "id: " + frame.id + eol;
  if (frame.retry !== undefined) out += "retry: " + frame.retry + eol;
  return out + linesOf("data: ", frame.data, eol) + eol;
}
