import type { SseWatch } from "./observe-sse.ts";
import { lastFrameEnd, type PlainChunkTest } from "./plain-chunk.ts";
import type { SseSplitter } from "./sse-splitter.ts";

/**
 * Whole upstream chunks the tap does not read. Once the watch has its sample of deltas and the
 * splitter stands between frames, a chunk (with the unfinished frame carried from the one
 * before) that is plain by `plainChunk` is only measured: its frames are counted for the watch
 * and it goes on untouched; the bytes after its last whole frame are carried. A chunk that is not
 * plain hands the carried bytes and itself back to the splitter. On a long stream nearly every
 * chunk is plain, so the tap costs a few native searches a chunk instead of a parse a frame.
 */
export interface ChunkSkipper {
  /** The whole-frame bytes of `chunk` (carry included) when it was skipped; undefined to parse. */
  skip(chunk: Uint8Array): Buffer | undefined;
  /** Bytes of an unfinished frame the splitter has not seen (to feed it before parsing). */
  takeCarry(): Buffer | undefined;
  /** Whether an unfinished frame is being carried. */
  readonly carrying: boolean;
}

export function chunkSkipper(
  plainChunk: PlainChunkTest | undefined,
  watch: SseWatch,
  splitter: SseSplitter,
): ChunkSkipper {
  let carry: Buffer | undefined;
  return {
    skip(chunk) {
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
    },
    takeCarry() {
      const taken = carry;
      carry = undefined;
      return taken;
    },
    get carrying() {
      return carry !== undefined;
    },
  };
}
