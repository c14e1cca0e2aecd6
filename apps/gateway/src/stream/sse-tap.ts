import type { SseMessage } from "@interlingua/core-types";
import type { SseWatch } from "./observe-sse.ts";
import { lastFrameEnd, type PlainChunkTest } from "./plain-chunk.ts";
import { createSseSplitter, type SsePosition } from "./sse-splitter.ts";

const STREAMING = { stream: true } as const;

/**
 * The parse of a same-format upstream stream that feeds the usage watch, shared by the
 * pass-through and re-framing stages. Every message goes to the watch, then every block (with its
 * exact text; a block of only comments has no message) to `onBlock`.
 *
 * Whole upstream chunks the tap does not read: once the watch has its sample of deltas and the
 * parse stands between frames, a chunk (with the unfinished frame carried from the one before)
 * that is plain by `plainChunk` is only measured: its frames are counted for the watch and it
 * goes on untouched; the bytes after its last whole frame are carried. A chunk that is not plain
 * is parsed after the carried bytes. On a long stream nearly every chunk is plain, so the tap
 * costs a few native searches a chunk instead of a parse a frame.
 */
export interface SseTap {
  /**
   * Reads one upstream chunk. Returns its whole-frame bytes (carry included) when it was only
   * measured, undefined when it was parsed (its blocks went to `onBlock`).
   */
  push(chunk: Uint8Array): Buffer | undefined;
  /** The upstream ended: parses what is left and ends the watch. */
  end(): void;
  /** Where the bytes read so far stand (a carried, unparsed frame is unfinished: `inside`). */
  readonly position: SsePosition;
  /** The line ending the stream uses (from its first line). */
  readonly lineEnding: "\n" | "\r\n";
}

export function sseTap(
  watch: SseWatch,
  plainChunk: PlainChunkTest | undefined,
  onBlock?: (message: SseMessage | undefined, raw: string) => void,
): SseTap {
  const utf8 = new TextDecoder();
  const splitter = createSseSplitter((message, raw) => {
    if (message !== undefined) watch.see(message);
    onBlock?.(message, raw);
  });
  let carry: Buffer | undefined;
  const feed = (bytes: Uint8Array) => splitter.feed(utf8.decode(bytes, STREAMING));
  const feedCarry = () => {
    if (carry === undefined) return;
    const carried = carry;
    carry = undefined;
    feed(carried);
  };
  const skip = (chunk: Uint8Array): Buffer | undefined => {
    if (plainChunk === undefined || !watch.sampled() || splitter.position !== "frame") {
      return undefined;
    }
    const view = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const bytes = carry === undefined ? view : Buffer.concat([carry, view]);
    if (!plainChunk.plain(bytes)) return undefined;
    const end = lastFrameEnd(bytes);
    watch.skipFrames(plainChunk.deltas(bytes.subarray(0, end)));
    // A copy, so a carried tail never pins the whole upstream chunk in memory.
    carry = end < bytes.length ? Buffer.from(bytes.subarray(end)) : undefined;
    return bytes.subarray(0, end);
  };
  return {
    push(chunk) {
      const frames = skip(chunk);
      if (frames !== undefined) return frames;
      feedCarry();
      feed(chunk);
      return undefined;
    },
    end() {
      feedCarry();
      splitter.feed(utf8.decode());
      watch.end();
    },
    get position() {
      return carry === undefined ? splitter.position : "inside";
    },
    get lineEnding() {
      return splitter.lineEnding;
    },
  };
}
