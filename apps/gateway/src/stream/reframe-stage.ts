import type { FrameTap, SseMessage, StreamFraming } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import type { SseWatch } from "./observe-sse.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { type SseTap, sseTap } from "./sse-tap.ts";

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
  return new Reframe(watch, options);
}

/** A class, not a closure per method: one lives as long as each stream it relays. */
class Reframe implements RelayStage {
  private readonly options: ReframeOptions;
  private readonly tap: SseTap;
  // The output of the chunk being read: parsed blocks as text, skipped runs as bytes, in order.
  private text = "";
  private readonly parts: Buffer[] = [];

  constructor(watch: SseWatch, options: ReframeOptions) {
    this.options = options;
    const { keep, framing, frames, rewrite } = options;
    // Re-framing must see every message, so only the raw framing skips.
    this.tap = sseTap(watch, framing === "raw" ? frames : undefined, {
      onBlock: (message, raw) => {
        if (message === undefined) {
          // Comments (an upstream's own keep-alives) stay when the framing can carry them.
          if (framing === "raw") this.text += raw;
          return;
        }
        if (!keep(message)) return;
        if (rewrite === undefined) this.text += framing === "raw" ? raw : framing.frame(message);
        else if (framing === "raw") this.text += rewrite(raw);
        else this.text += framing.frame({ ...message, data: rewrite(message.data) });
      },
      onSkipped: (frames) => {
        if (this.text !== "") this.parts.push(Buffer.from(this.text, "utf8"));
        this.text = "";
        this.parts.push(frames);
      },
    });
  }

  push(chunk: Uint8Array): Buffer | string {
    this.tap.push(chunk);
    return this.take();
  }

  end(): string {
    this.tap.end();
    const ending = this.options.ending?.() ?? [];
    return this.takeText() + this.written(ending) + this.close();
  }

  fail(error: unknown): string {
    return this.takeText() + this.written(this.options.failure(error)) + this.close();
  }

  keepAlive(): string | undefined {
    const framing = this.options.framing;
    return framing === "raw" ? keepAliveAt("frame", this.tap.lineEnding()) : framing.keepAlive();
  }

  private written(messages: SseMessage[]): string {
    const framing = this.options.framing;
    if (framing !== "raw") return messages.map((message) => framing.frame(message)).join("");
    const lineEnding = this.tap.lineEnding();
    return messages.map((message) => encodeSseEvent(message, { lineEnding })).join("");
  }

  private close(): string {
    const framing = this.options.framing;
    return framing === "raw" ? "" : framing.close();
  }

  private take(): Buffer | string {
    const rest = this.text;
    this.text = "";
    const parts = this.parts;
    if (parts.length === 0) return rest;
    if (rest !== "") parts.push(Buffer.from(rest, "utf8"));
    // The skipped runs are views of the upstream chunk: copied out before the next one comes.
    const bytes = parts.length === 1 ? Buffer.from(parts[0]!) : Buffer.concat(parts);
    parts.length = 0;
    return bytes;
  }

  // After a throw mid-chunk, skipped runs may still be waiting as bytes.
  private takeText(): string {
    return this.take().toString();
  }
}
