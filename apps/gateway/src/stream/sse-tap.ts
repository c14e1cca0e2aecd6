import type { FrameTap, SseMessage } from "@interlingua/core-types";
import { createSseSplitter, type SseSplitter, type StreamPosition } from "@interlingua/sse";
import type { SseWatch } from "./observe-sse.ts";
import { MalformedStreamError, wellEndedFrames } from "./well-formed-sse.ts";

const STREAMING = { stream: true } as const;
/**
 * The most characters one upstream stream frame may hold (a Gemini frame may carry inline images
 * of many megabytes): past it the stream fails, rather than buffer an endless frame.
 */
export const MAX_FRAME_CHARS = 64 * 1024 * 1024;
/** Past this, an unfinished frame is parsed, so a huge one is not re-copied with every chunk. */
const CARRY_LIMIT = 16 * 1024;

/**
 * Runs of plain deltas are skipped by native search up to the next frame the codec's tap needs,
 * so a long stream parses only its first and last few frames; an unfinished frame is carried,
 * not parsed, so the parse stays between frames.
 */
export interface SseTap {
  /** Reads one upstream chunk: its blocks go to `onBlock`, its skipped runs to `onSkipped`, in order. */
  push(chunk: Uint8Array): void;
  /** The upstream ended: parses what is left and ends the watch. */
  end(): void;
  /** Where the bytes read so far stand (a carried, unparsed frame is unfinished: `inside`). */
  position(): StreamPosition;
  /** The line ending the stream uses (from its first line). */
  lineEnding(): "\n" | "\r\n";
  /**
   * The last pushed chunk as Latin-1 text, when the frame search read it whole as such (nothing
   * carried before it), else undefined: the redacting sink reuses it instead of decoding again.
   */
  text(): string | undefined;
}

export interface SseTapOptions {
  onBlock?: (message: SseMessage | undefined, raw: string) => void;
  /** Whole frames that went by unparsed (a view of the chunk, valid until the next push). */
  onSkipped?: (frames: Buffer) => void;
}

const asBuffer = (chunk: Uint8Array) =>
  Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);

/** Frames in `text` between `from` (a frame start) and `to` that start with `marker`. */
function framesStartingWith(
  text: string,
  from: number,
  to: number,
  separator: string,
  marker: string,
): number {
  let n = text.startsWith(marker, from) ? 1 : 0;
  const needle = separator + marker;
  // A frame that starts before `to` has its separator end before it.
  for (let at = text.indexOf(needle, from); at >= 0 && at + separator.length < to; ) {
    n++;
    at = text.indexOf(needle, at + needle.length);
  }
  return n;
}

export function sseTap(
  watch: SseWatch,
  frames: FrameTap | undefined,
  options: SseTapOptions = {},
): SseTap {
  return new Tap(watch, frames, options);
}

/** A class, not a closure per method: one lives as long as each stream it taps. */
class Tap implements SseTap {
  private readonly watch: SseWatch;
  private readonly frames: FrameTap | undefined;
  private readonly onSkipped: ((frames: Buffer) => void) | undefined;
  private readonly utf8 = new TextDecoder();
  private readonly splitter: SseSplitter;
  private carry: Buffer | undefined = undefined;
  private lastText: string | undefined = undefined;

  constructor(watch: SseWatch, frames: FrameTap | undefined, options: SseTapOptions) {
    this.watch = watch;
    this.frames = frames;
    this.onSkipped = options.onSkipped;
    const onBlock = options.onBlock;
    this.splitter = createSseSplitter(
      onBlock === undefined
        ? (message) => {
            if (message !== undefined) watch.see(message);
          }
        : (message, raw) => {
            if (message !== undefined) watch.see(message);
            onBlock(message, raw);
          },
      { maxBufferSize: MAX_FRAME_CHARS },
    );
  }

  push(chunk: Uint8Array): void {
    this.lastText = undefined;
    const view = asBuffer(chunk);
    const bytes = this.carry === undefined ? view : Buffer.concat([this.carry, view]);
    this.carry = undefined;
    const frames = this.frames;
    if (frames === undefined) {
      this.feed(bytes);
      return;
    }
    const splitter = this.splitter;
    const text = bytes.toString("latin1");
    if (bytes === view) this.lastText = text;
    let at = 0;
    if (!splitter.lineEndingKnown()) {
      // The stream's first line is parsed: it tells the line ending that frame ends are
      // searched by.
      const eol = text.indexOf("\n");
      if (eol < 0) {
        this.feed(bytes);
        return;
      }
      at = eol + 1;
      this.feed(bytes.subarray(0, at));
    }
    if (!this.betweenFrames()) {
      // The frame in progress is parsed to its end; skipping may start after it. After a whole
      // line, a blank line right here ends it.
      const eol = splitter.lineEnding();
      const end =
        splitter.position() === "line" && text.startsWith(eol, at)
          ? at + eol.length
          : this.frameEnd(text, at);
      if (end < 0) {
        this.feed(bytes.subarray(at));
        return;
      }
      this.feed(bytes.subarray(at, end));
      at = end;
      if (!this.betweenFrames()) {
        this.feed(bytes.subarray(at));
        return;
      }
    }
    this.read(bytes, text, frames, at);
  }

  end(): void {
    if (this.carry !== undefined) this.feed(this.carry);
    this.carry = undefined;
    this.splitter.feed(this.utf8.decode());
    this.splitter.flush();
    this.watch.end();
  }

  position(): StreamPosition {
    return this.carry === undefined ? this.splitter.position() : "inside";
  }

  lineEnding(): "\n" | "\r\n" {
    return this.splitter.lineEnding();
  }

  text(): string | undefined {
    return this.lastText;
  }

  private betweenFrames(): boolean {
    return this.splitter.position() === "frame";
  }

  private feed(bytes: Uint8Array): void {
    this.splitter.feed(this.utf8.decode(bytes, STREAMING));
  }

  // A blank line ends a frame whatever line ends came before it; the stream's own is searched.
  private separator(): string {
    return this.splitter.lineEnding() === "\r\n" ? "\r\n\r\n" : "\n\n";
  }

  /** The offset just past the first frame end at or after `from` in `text`, -1 when none. */
  private frameEnd(text: string, from: number): number {
    const sep = this.separator();
    const at = text.indexOf(sep, from);
    return at < 0 ? -1 : at + sep.length;
  }

  /** The offset just past the last frame end in `text` between `from` and `to`, `from` when none. */
  private lastFrameEnd(text: string, from: number, to: number): number {
    const sep = this.separator();
    if (to - from < sep.length) return from;
    const at = text.lastIndexOf(sep, to - sep.length);
    return at < from ? from : at + sep.length;
  }

  /**
   * Reads `bytes` from `from`, a frame boundary, on: parses what must be, skips what need not.
   * The searches run on `text`, the bytes as Latin-1, whose offsets are byte offsets.
   */
  private read(bytes: Buffer, text: string, tap: FrameTap, from: number): void {
    const watch = this.watch;
    const needed = tap.scan(text);
    let at = from;
    while (at < bytes.length) {
      const need = needed(at);
      const start = this.lastFrameEnd(text, at, need);
      if (start > at) {
        const sep = this.separator();
        const wanted = watch.samplesWanted();
        if (wanted > 0) {
          // The watch's sample: the run's first frames, kept as their bytes, parsed only if
          // billing ever needs an estimate.
          let end = at;
          let frames = 0;
          for (; frames < wanted; frames++) {
            const next = this.frameEnd(text, end);
            if (next < 0 || next > start) break;
            end = next;
          }
          watch.keepSample(bytes.subarray(at, end), frames);
        }
        if (watch.strict === true && !wellEndedFrames(text, at, start, sep)) {
          throw new MalformedStreamError("upstream sent a stream frame cut short");
        }
        watch.skipFrames(framesStartingWith(text, at, start, sep, tap.deltaFrameStart));
        this.onSkipped?.(bytes.subarray(at, start));
        at = start;
      }
      if (need >= bytes.length) {
        // Past the limit the unfinished frame is parsed (below) instead of carried.
        if (bytes.length - at > CARRY_LIMIT) break;
        // An unfinished frame with nothing needed so far waits for its end, as bytes (a copy,
        // so it never pins the whole upstream chunk in memory).
        if (at < bytes.length) this.carry = Buffer.from(bytes.subarray(at));
        return;
      }
      const end = this.frameEnd(text, need);
      if (end < 0) break;
      this.feed(bytes.subarray(at, end));
      at = end;
    }
    if (at < bytes.length) this.feed(bytes.subarray(at));
  }
}
