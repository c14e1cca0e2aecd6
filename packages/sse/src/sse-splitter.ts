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

/**
 * A push parser of SSE text (the WHATWG event-stream rules: CRLF, LF or CR line ends, `:`
 * comments, `data`/`event`/`id`/`retry` fields, one leading space of a value dropped). Each block
 * that a blank line ends goes to `onBlock` with its exact text, and with its message when it
 * dispatches one (a block of only comments or empty data dispatches none). A block the stream
 * never ends is not dispatched, as the standard says.
 *
 * Synchronous and allocation-light on purpose: a relay runs it on every chunk of every stream,
 * where a TransformStream per stage costs more than the parsing. Unlike `decodeSse` it keeps each
 * block's text, so a relay can pass blocks on verbatim or drop them whole, and it neither strips
 * a byte-order mark nor bounds its buffer: it reads text a caller already chose to relay.
 */
export function createSseSplitter(
  onBlock: (message: SseEvent | undefined, raw: string) => void,
): SseSplitter {
  // The current block's text from its first byte; `cursor` is where its unparsed lines start.
  let pending = "";
  let cursor = 0;
  // Up to here `pending` holds no line end: a long line is scanned once, not once per piece.
  let scanned = 0;
  // A CR ended the last line; an LF that starts the next piece belongs to it.
  let afterCr = false;
  // That CR was a blank line: the block waits to be dispatched until the LF it may still have has
  // arrived, so the LF is part of its text and not the next block's.
  let held = false;
  let lineEnding: "\n" | "\r\n" | undefined;
  let data: string | undefined;
  let event: string | undefined;
  let id: string | undefined;
  let retry: number | undefined;

  const field = (line: string) => {
    const colon = line.indexOf(":");
    if (colon === 0) return;
    const name = colon < 0 ? line : line.slice(0, colon);
    const value =
      colon < 0 ? "" : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1);
    if (name === "data") data = data === undefined ? value : `${data}\n${value}`;
    else if (name === "event") event = value;
    else if (name === "id") {
      if (!value.includes("\0")) id = value;
    } else if (name === "retry" && /^\d+$/.test(value)) retry = Number(value);
  };

  const dispatch = (end: number) => {
    const raw = pending.slice(0, end);
    pending = pending.slice(end);
    cursor = 0;
    scanned = 0;
    let message: SseEvent | undefined;
    if (data !== undefined) {
      message = { data };
      if (event !== undefined) message.event = event;
      if (id !== undefined) message.id = id;
      if (retry !== undefined) message.retry = retry;
    }
    data = undefined;
    event = undefined;
    id = undefined;
    retry = undefined;
    onBlock(message, raw);
  };

  return {
    feed(text) {
      if (text === "") return;
      pending += text;
      if (afterCr) {
        afterCr = false;
        const lf = pending.charCodeAt(cursor) === 10;
        if (lf) cursor++;
        lineEnding ??= lf ? "\r\n" : "\n";
        if (held) {
          held = false;
          dispatch(cursor);
        }
      }
      const hasCr = pending.includes("\r", Math.max(cursor, scanned));
      for (;;) {
        const from = Math.max(cursor, scanned);
        const lf = pending.indexOf("\n", from);
        const cr = hasCr ? pending.indexOf("\r", from) : -1;
        const eol = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
        if (eol < 0) {
          scanned = pending.length;
          return;
        }
        let next = eol + 1;
        if (eol === cr) {
          if (next === pending.length) afterCr = true;
          else if (pending.charCodeAt(next) === 10) next++;
        }
        // A CR at the very end tells the line ending only once what follows it is known.
        if (!afterCr) lineEnding ??= next - eol === 2 ? "\r\n" : "\n";
        if (eol === cursor) {
          if (afterCr) {
            held = true;
            cursor = next;
            return;
          }
          dispatch(next);
        } else {
          field(pending.slice(cursor, eol));
          cursor = next;
        }
      }
    },
    flush() {
      if (!held) return;
      held = false;
      afterCr = false;
      dispatch(cursor);
    },
    position() {
      // A CR that may be the first half of a CRLF: the LF to come is still part of it.
      if (afterCr) return "inside";
      if (pending === "") return "frame";
      return cursor === pending.length ? "line" : "inside";
    },
    lineEnding() {
      return lineEnding ?? "\n";
    },
    lineEndingKnown() {
      return lineEnding !== undefined;
    },
  };
}
