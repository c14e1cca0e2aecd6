import type { SseEvent } from "./sse-event.js";
import type { StreamPosition } from "./stream-position.js";

export interface SseSplitter {
  /**
   * Parses the next piece of the stream; complete blocks go to `onBlock` before it returns, but
   * for one that a CR at the very end of the piece closes (its LF may still come).
   */
  feed(text: string): void;
  /** The stream ended: a block still waiting for the LF of its last CR goes to `onBlock`. */
  flush(): void;
  /**
   * Where the text fed so far ends: between frames, after a whole line inside one, or mid-line (a
   * final CR counts as mid-line: an LF may still complete it).
   */
  position(): StreamPosition;
  /** The line ending the stream uses (from its first line), for text inserted between frames. */
  lineEnding(): "\n" | "\r\n";
  /** Whether a line has ended yet (until then `lineEnding` is only a default). */
  lineEndingKnown(): boolean;
}

export interface SseSplitterOptions {
  /**
   * The most characters one unfinished block (frame) may hold. Past it `feed` throws a
   * `SseBufferOverflowError` instead of buffering without bound. Unlimited by default.
   */
  maxBufferSize?: number;
}

/** A block grew past the splitter's `maxBufferSize` before a blank line ended it. */
export class SseBufferOverflowError extends Error {
  override readonly name = "SseBufferOverflowError";
  constructor(limit: number) {
    super(`an SSE frame is longer than ${limit} characters`);
  }
}

/**
 * A push parser of SSE text (the WHATWG event-stream rules: CRLF, LF or CR line ends, `:`
 * comments, `data`/`event`/`id`/`retry` fields, one leading space of a value dropped). Each block
 * that a blank line ends goes to `onBlock` with its exact text, and with its message when it
 * dispatches one (a block of only comments or empty data dispatches none). A block the stream
 * never ends is not dispatched, as the standard says.
 *
 * Synchronous and allocation-light on purpose: a relay runs it on every chunk of every stream,
 * where a TransformStream per stage costs more than the parsing. Unlike `decodeSse` it keeps each
 * block's text, so a relay can pass blocks on verbatim or drop them whole, and it does not strip
 * a byte-order mark: it reads text a caller already chose to relay. A line spread over many
 * pieces costs time in proportion to its length (the pieces are joined once, when it ends), and
 * `maxBufferSize` bounds what one block may hold.
 */
export function createSseSplitter(
  onBlock: (message: SseEvent | undefined, raw: string) => void,
  options: SseSplitterOptions = {},
): SseSplitter {
  return new Splitter(onBlock, options.maxBufferSize ?? Number.POSITIVE_INFINITY);
}

/** A class, not a closure per method: one lives as long as each stream it reads. */
class Splitter implements SseSplitter {
  private readonly onBlock: (message: SseEvent | undefined, raw: string) => void;
  private readonly maxBufferSize: number;
  // The current block's text from its first byte; `cursor` is where its unparsed lines start.
  private pending = "";
  // Pieces after `pending` that hold no line end: appending each to `pending` and searching it
  // would copy the whole line once per piece (quadratic in a long line); joined once it ends.
  private readonly tail: string[] = [];
  private tailLength = 0;
  private cursor = 0;
  // Up to here `pending` holds no line end: a long line is scanned once, not once per piece.
  private scanned = 0;
  // A CR ended the last line; an LF that starts the next piece belongs to it.
  private afterCr = false;
  // That CR was a blank line: the block waits to be dispatched until the LF it may still have
  // has arrived, so the LF is part of its text and not the next block's.
  private held = false;
  private ending: "\n" | "\r\n" | undefined = undefined;
  private data: string | undefined = undefined;
  private event: string | undefined = undefined;
  private id: string | undefined = undefined;
  private retry: number | undefined = undefined;

  constructor(
    onBlock: (message: SseEvent | undefined, raw: string) => void,
    maxBufferSize: number,
  ) {
    this.onBlock = onBlock;
    this.maxBufferSize = maxBufferSize;
  }

  feed(text: string): void {
    if (text === "") return;
    if (!this.afterCr && !text.includes("\n") && !text.includes("\r")) {
      // The line goes on (`pending` is scanned to its end: the last feed found no line end).
      this.tail.push(text);
      this.tailLength += text.length;
      this.checkSize();
      return;
    }
    if (this.tailLength > 0) {
      this.pending += this.tail.join("");
      this.scanned = this.pending.length;
      this.tail.length = 0;
      this.tailLength = 0;
    }
    this.pending += text;
    if (this.afterCr) {
      this.afterCr = false;
      const lf = this.pending.charCodeAt(this.cursor) === 10;
      if (lf) this.cursor++;
      this.ending ??= lf ? "\r\n" : "\n";
      if (this.held) {
        this.held = false;
        this.dispatch(this.cursor);
      }
    }
    const hasCr = this.pending.includes("\r", Math.max(this.cursor, this.scanned));
    for (;;) {
      const pending = this.pending;
      const from = Math.max(this.cursor, this.scanned);
      const lf = pending.indexOf("\n", from);
      const cr = hasCr ? pending.indexOf("\r", from) : -1;
      const eol = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
      if (eol < 0) {
        this.scanned = pending.length;
        this.checkSize();
        return;
      }
      let next = eol + 1;
      if (eol === cr) {
        if (next === pending.length) this.afterCr = true;
        else if (pending.charCodeAt(next) === 10) next++;
      }
      // A CR at the very end tells the line ending only once what follows it is known.
      if (!this.afterCr) this.ending ??= next - eol === 2 ? "\r\n" : "\n";
      if (eol === this.cursor) {
        if (this.afterCr) {
          this.held = true;
          this.cursor = next;
          return;
        }
        this.dispatch(next);
      } else {
        this.field(pending.slice(this.cursor, eol));
        this.cursor = next;
      }
    }
  }

  flush(): void {
    if (!this.held) return;
    this.held = false;
    this.afterCr = false;
    this.dispatch(this.cursor);
  }

  position(): StreamPosition {
    // A CR that may be the first half of a CRLF: the LF to come is still part of it.
    if (this.afterCr || this.tailLength > 0) return "inside";
    if (this.pending === "") return "frame";
    return this.cursor === this.pending.length ? "line" : "inside";
  }

  lineEnding(): "\n" | "\r\n" {
    return this.ending ?? "\n";
  }

  lineEndingKnown(): boolean {
    return this.ending !== undefined;
  }

  private checkSize(): void {
    if (this.pending.length + this.tailLength > this.maxBufferSize) {
      throw new SseBufferOverflowError(this.maxBufferSize);
    }
  }

  private field(line: string): void {
    const colon = line.indexOf(":");
    if (colon === 0) return;
    const name = colon < 0 ? line : line.slice(0, colon);
    const value =
      colon < 0 ? "" : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    if (name === "data") this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    else if (name === "event") this.event = value;
    else if (name === "id") {
      if (!value.includes("\0")) this.id = value;
    } else if (name === "retry" && /^\d+$/.test(value)) this.retry = Number(value);
  }

  private dispatch(end: number): void {
    const raw = this.pending.slice(0, end);
    this.pending = this.pending.slice(end);
    this.cursor = 0;
    this.scanned = 0;
    let message: SseEvent | undefined;
    if (this.data !== undefined) {
      message = { data: this.data };
      if (this.event !== undefined) message.event = this.event;
      if (this.id !== undefined) message.id = this.id;
      if (this.retry !== undefined) message.retry = this.retry;
    }
    this.data = undefined;
    this.event = undefined;
    this.id = undefined;
    this.retry = undefined;
    this.onBlock(message, raw);
  }
}
