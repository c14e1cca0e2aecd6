import type { FrameTap, SseMessage } from "@interlingua/core-types";
import { encodeSseEvent, type StreamPosition } from "@interlingua/sse";
import type { SseWatch } from "./observe-sse.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { type SseTap, sseTap } from "./sse-tap.ts";

/**
 * The client gets the upstream's very bytes while a parse feeds the usage watch. A failure first
 * closes the frame it cut, then appends `failure`'s frames; a chunk with a malformed frame is not
 * sent at all. `ending` gives the frames a stream that ended without its terminal event ends with.
 */
export function passThroughStage(
  watch: SseWatch,
  failure: (error: unknown) => SseMessage[],
  frames?: FrameTap,
  ending: () => SseMessage[] = () => [],
): RelayStage {
  return new PassThrough(sseTap(watch, frames), failure, ending);
}

/** A class, not a closure per method: one lives as long as each stream it relays. */
class PassThrough implements RelayStage {
  private readonly tap: SseTap;
  private readonly failure: (error: unknown) => SseMessage[];
  private readonly ending: () => SseMessage[];
  // Where the client's bytes stand: a chunk whose parse threw (a malformed frame) is not sent.
  private sent: StreamPosition;

  constructor(tap: SseTap, failure: (error: unknown) => SseMessage[], ending: () => SseMessage[]) {
    this.tap = tap;
    this.failure = failure;
    this.ending = ending;
    this.sent = tap.position();
  }

  push(chunk: Uint8Array): Uint8Array {
    this.tap.push(chunk);
    this.sent = this.tap.position();
    return chunk;
  }

  end(): string {
    this.tap.end();
    const last = this.ending();
    return last.length === 0 ? "" : this.after(last);
  }

  fail(error: unknown): string {
    return this.after(this.failure(error));
  }

  keepAlive(): string | undefined {
    return keepAliveAt(this.tap.position(), this.tap.lineEnding());
  }

  pushedText(): string | undefined {
    return this.tap.text();
  }

  /** Frames after what was sent, closing the frame a cut left open first. */
  private after(messages: SseMessage[]): string {
    const eol = this.tap.lineEnding();
    const text = messages.map((message) => encodeSseEvent(message, { lineEnding: eol }));
    return (this.sent === "frame" ? "" : eol + eol) + text.join("");
  }
}
