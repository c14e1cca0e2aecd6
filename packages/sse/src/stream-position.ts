const LF = 10;
const CR = 13;

/**
 * Where a byte stream stands between SSE frames: `frame` after a blank line (or before any
 * byte), `line` after a line ended by LF, `inside` anywhere else: mid-line, or after a CR whose
 * LF may still come. A keep-alive may only go where it cannot change what the bytes mean.
 */
export type StreamPosition = "frame" | "line" | "inside";

/** Follows the last three bytes of a stream, across chunk borders. */
export class StreamPositionTracker {
  // Before any byte the stream stands between frames, as after `\n\n`.
  #last = LF;
  #beforeLast = LF;
  #third = LF;

  observe(chunk: Uint8Array): void {
    for (let i = Math.max(0, chunk.length - 3); i < chunk.length; i++) {
      this.#third = this.#beforeLast;
      this.#beforeLast = this.#last;
      this.#last = chunk[i]!;
    }
  }

  get position(): StreamPosition {
    const last = this.#last;
    const before = this.#beforeLast;
    const isBreak = (byte: number) => byte === LF || byte === CR;
    // A CR just ended a line: it is blank when a break came before it. Anything the LF that may
    // follow would then form is another blank line, which dispatches nothing.
    if (last === CR) return isBreak(before) ? "frame" : "inside";
    if (last !== LF) return "inside";
    // LF alone, or the LF of a CRLF: the line it ends is blank when a break came before that.
    const lineStart = before === CR ? this.#third : before;
    return isBreak(lineStart) ? "frame" : "line";
  }

  /** The line ending the stream uses, to write the keep-alive in the same style. */
  get lineEnding(): "\n" | "\r\n" {
    return this.#last === LF && this.#beforeLast === CR ? "\r\n" : "\n";
  }
}
