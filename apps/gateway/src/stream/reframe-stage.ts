import type { FrameTap, SseMessage, StreamFraming } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import type { SseWatch } from "./observe-sse.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { sseTap } from "./sse-tap.ts";

export interface ReframeOptions {
  /** Whether the client gets a message (the usage chunk it did not ask for is kept from it). */
  keep: (message: SseMessage) => boolean;
  /** Kept blocks go out as their exact upstream text (`raw`) or written by a framing. */
  framing: "raw" | StreamFraming;
  /** The error messages the client gets when the upstream fails. */
  failure: (error: unknown) => SseMessage[];
  /**
   * With `raw` framing: runs of plain deltas (which `keep` never drops) go out as their frames'
   * bytes without being parsed (see `sseTap`).
   */
  frames?: FrameTap | undefined;
  /** Rewrites each kept block (its raw text, or its data under another framing): the model's name. */
  rewrite?: ((text: string) => string) | undefined;
  /** The messages a stream that ended without its terminal event ends with. */
  ending?: () => SseMessage[];
}

/**
 * The watch sees every message, the client only whole kept frames: a chunk's output leaves as one
 * piece and a half frame waits for its end.
 */
export function reframeStage(watch: SseWatch, options: ReframeOptions): RelayStage {
  const { keep, framing, failure, frames, rewrite, ending } = options;
  // The output of the chunk being read: parsed blocks as text, skipped runs as bytes, in order.
  let text = "";
  const parts: Buffer[] = [];
  // Re-framing must see every message, so only the raw framing skips.
  const tap = sseTap(watch, framing === "raw" ? frames : undefined, {
    onBlock(message, raw) {
      if (message === undefined) {
        // Comments (an upstream's own keep-alives) stay when the framing can carry them.
        if (framing === "raw") text += raw;
        return;
      }
      if (!keep(message)) return;
      if (rewrite === undefined) text += framing === "raw" ? raw : framing.frame(message);
      else if (framing === "raw") text += rewrite(raw);
      else text += framing.frame({ ...message, data: rewrite(message.data) });
    },
    onSkipped(frames) {
      if (text !== "") parts.push(Buffer.from(text, "utf8"));
      text = "";
      parts.push(frames);
    },
  });
  const write = (message: SseMessage) =>
    framing === "raw"
      ? encodeSseEvent(message, { lineEnding: tap.lineEnding() })
      : framing.frame(message);
  const close = () => (framing === "raw" ? "" : framing.close());
  const take = (): Buffer | string => {
    const rest = text;
    text = "";
    if (parts.length === 0) return rest;
    if (rest !== "") parts.push(Buffer.from(rest, "utf8"));
    // The skipped runs are views of the upstream chunk: copied out before the next one comes.
    const bytes = parts.length === 1 ? Buffer.from(parts[0]!) : Buffer.concat(parts);
    parts.length = 0;
    return bytes;
  };
  // After a throw mid-chunk, skipped runs may still be waiting as bytes.
  const takeText = () => take().toString();
  return {
    push(chunk) {
      tap.push(chunk);
      return take();
    },
    end() {
      tap.end();
      return takeText() + (ending?.() ?? []).map(write).join("") + close();
    },
    fail(error) {
      return takeText() + failure(error).map(write).join("") + close();
    },
    keepAlive: () =>
      framing === "raw" ? keepAliveAt("frame", tap.lineEnding()) : framing.keepAlive(),
  };
}
