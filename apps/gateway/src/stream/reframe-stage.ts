import type { SseMessage } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import type { ClientFraming } from "./client-framing.ts";
import type { SseWatch } from "./observe-sse.ts";
import type { PlainChunkTest } from "./plain-chunk.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { sseTap } from "./sse-tap.ts";

export interface ReframeOptions {
  /** Whether the client gets a message (the usage chunk it did not ask for is kept from it). */
  keep: (message: SseMessage) => boolean;
  /** Kept blocks go out as their exact upstream text (`raw`) or written by a framing. */
  framing: "raw" | ClientFraming;
  /** The error messages the client gets when the upstream fails. */
  failure: (error: unknown) => SseMessage[];
  /**
   * With `raw` framing: chunks of plain deltas (which `keep` never drops) go out as their whole
   * frames without being parsed (see `sseTap`).
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
  let out = "";
  // Re-framing must see every message, so only the raw framing skips.
  const tap = sseTap(watch, framing === "raw" ? plainChunk : undefined, (message, raw) => {
    if (message === undefined) {
      // Comments (an upstream's own keep-alives) stay when the framing can carry them.
      if (framing === "raw") out += raw;
      return;
    }
    if (!keep(message)) return;
    out += framing === "raw" ? raw : framing.frame(message);
  });
  const write = (message: SseMessage) =>
    framing === "raw"
      ? encodeSseEvent(message, { lineEnding: tap.lineEnding })
      : framing.frame(message);
  const close = () => (framing === "raw" ? "" : framing.close());
  const take = () => {
    const text = out;
    out = "";
    return text;
  };
  return {
    // A chunk only measured is whole frames, all of them kept.
    push: (chunk) => tap.push(chunk) ?? take(),
    end() {
      tap.end();
      return take() + close();
    },
    fail(error) {
      return take() + failure(error).map(write).join("") + close();
    },
    keepAlive: () =>
      framing === "raw" ? keepAliveAt("frame", tap.lineEnding) : framing.keepAlive(),
  };
}
