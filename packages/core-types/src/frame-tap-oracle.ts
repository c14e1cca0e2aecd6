import type { Codec, FrameTap, SseMessage } from "./codec.js";

/** What a usage-and-finish reader must never miss. */
const NEEDED = new Set(["usage", "finish", "error", "provider-extras"]);

const encoder = new TextEncoder();

/** Bytes as Latin-1 text, one character per byte, as a relay hands them to `FrameTap.scan`. */
function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/**
 * The two sides of a format's frame-tap property: what its own decoder needs from each frame,
 * and which frames the tap's scan of the raw bytes lets by. A frame let by must need nothing.
 */
export function frameTapOracle(codec: Pick<Codec, "stream">, tap: FrameTap) {
  return {
    /** The needed event types of each frame, decoded in order by one decoder (state carries over). */
    neededPerFrame(frames: readonly SseMessage[]): string[][] {
      const decoder = codec.stream.decoder();
      return frames.map((frame) => {
        const needed: string[] = [];
        decoder.push(frame, (event) => {
          if (NEEDED.has(event.type)) needed.push(event.type);
        });
        return needed;
      });
    },
    /** Per frame text (one SSE frame each), whether the scan of all their bytes skips it. */
    unneeded(texts: readonly string[]): boolean[] {
      const needed = tap.scan(latin1(encoder.encode(texts.join(""))));
      let start = 0;
      return texts.map((text) => {
        const end = start + encoder.encode(text).length;
        const skipped = needed(start) >= end;
        start = end;
        return skipped;
      });
    },
  };
}

/** Compact JSON, as providers write it, or with a space after every colon and comma. */
export const wireJson = (value: unknown, spaced: boolean): string =>
  spaced ? JSON.stringify(value, null, 1).replace(/\n */g, " ") : JSON.stringify(value);
