import type { FrameTap, SseMessage } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import type { SseWatch } from "./observe-sse.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { sseTap } from "./sse-tap.ts";

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
  const tap = sseTap(watch, frames);
  // Where the client's bytes stand: a chunk whose parse threw (a malformed frame) is not sent.
  let sent = tap.position();
  /** Frames after what was sent, closing the frame a cut left open first. */
  const after = (messages: SseMessage[]) => {
    const eol = tap.lineEnding();
    const text = messages.map((message) => encodeSseEvent(message, { lineEnding: eol }));
    return (sent === "frame" ? "" : eol + eol) + text.join("");
  };
  return {
    push(chunk) {
      tap.push(chunk);
      sent = tap.position();
      return chunk;
    },
    end() {
      tap.end();
      const last = ending();
      return last.length === 0 ? "" : after(last);
    },
    fail: (error) => after(failure(error)),
    keepAlive: () => keepAliveAt(tap.position(), tap.lineEnding()),
  };
}
