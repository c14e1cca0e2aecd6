import type { SseMessage } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import { chunkSkipper } from "./chunk-skipper.ts";
import type { ClientFraming } from "./client-framing.ts";
import type { SseWatch } from "./observe-sse.ts";
import type { PlainChunkTest } from "./plain-chunk.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { createSseSplitter } from "./sse-splitter.ts";

const STREAMING = { stream: true } as const;

export interface ReframeOptions {
  /** Whether the client gets a message (the usage chunk it did not ask for is kept from it). */
  keep: (message: SseMessage) => boolean;
  /** Kept blocks go out as their exact upstream text (`raw`) or written by a framing. */
  framing: "raw" | ClientFraming;
  /** The error messages the client gets when the upstream fails. */
  failure: (error: unknown) => SseMessage[];
  /**
   * With `raw` framing: chunks of plain deltas (which `keep` never drops) go out as their whole
   * frames without being parsed (see `chunkSkipper`).
   */
  plainChunk?: PlainChunkTest | undefined;
}

/**
 * Same format, but not every upstream frame reaches the client as is: the watch sees every
 * message (with raw framing, but for whole chunks of plain deltas, which are only measured), the
 * client only whole kept ones, in their upstream text or re-framed. Each upstream
 * chunk's output goes out as one piece, and a half frame waits for its end, so the client only
 * ever reads whole frames.
 */
export function reframeStage(watch: SseWatch, options: ReframeOptions): RelayStage {
  const { keep, framing, failure, plainChunk } = options;
  const utf8 = new TextDecoder();
  let out = "";
  const splitter = createSseSplitter((message, raw) => {
    if (message === undefined) {
      // Comments (an upstream's own keep-alives) stay when the framing can carry them.
      if (framing === "raw") out += raw;
      return;
    }
    watch.see(message);
    if (!keep(message)) return;
    out += framing === "raw" ? raw : framing.frame(message);
  });
  // Re-framing must see every message, so only the raw framing skips.
  const skipper = chunkSkipper(framing === "raw" ? plainChunk : undefined, watch, splitter);
  const feed = (bytes: Uint8Array) => splitter.feed(utf8.decode(bytes, STREAMING));
  const write = (message: SseMessage) =>
    framing === "raw"
      ? encodeSseEvent(message, { lineEnding: splitter.lineEnding })
      : framing.frame(message);
  const take = () => {
    const text = out;
    out = "";
    return text;
  };
  return {
    push(chunk) {
      const frames = skipper.skip(chunk);
      if (frames !== undefined) return frames;
      const carried = skipper.takeCarry();
      if (carried !== undefined) feed(carried);
      feed(chunk);
      return take();
    },
    end() {
      const carried = skipper.takeCarry();
      if (carried !== undefined) feed(carried);
      splitter.feed(utf8.decode());
      watch.end();
      return take() + (framing === "raw" ? "" : framing.close());
    },
    fail(error) {
      return (
        take() + failure(error).map(write).join("") + (framing === "raw" ? "" : framing.close())
      );
    },
    keepAlive: () =>
      framing === "raw" ? keepAliveAt("frame", splitter.lineEnding) : framing.keepAlive(),
  };
}
