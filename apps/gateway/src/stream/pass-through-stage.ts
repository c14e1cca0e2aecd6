import type { SseMessage } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import type { SseWatch } from "./observe-sse.ts";
import type { PlainChunkTest } from "./plain-chunk.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { sseTap } from "./sse-tap.ts";

/**
 * Same format, same framing: every upstream chunk goes to the client as it came (the very same
 * bytes), while a parse of its text feeds the usage watch (runs of plain deltas are only
 * counted, see `sseTap`). A failure first ends whatever frame it cut in half, then appends
 * `failure`'s error frames; a chunk with a malformed frame (the tap throws) is not sent at all.
 */
export function passThroughStage(
  watch: SseWatch,
  failure: (error: unknown) => SseMessage[],
  plainChunk?: PlainChunkTest,
): RelayStage {
  const tap = sseTap(watch, plainChunk);
  // Where the client's bytes stand: a chunk whose parse threw (a malformed frame) is not sent.
  let sent = tap.position();
  return {
    push(chunk) {
      tap.push(chunk);
      sent = tap.position();
      return chunk;
    },
    end() {
      tap.end();
      return "";
    },
    fail(error) {
      const eol = tap.lineEnding();
      const frames = failure(error).map((message) => encodeSseEvent(message, { lineEnding: eol }));
      return (sent === "frame" ? "" : eol + eol) + frames.join("");
    },
    keepAlive: () => keepAliveAt(tap.position(), tap.lineEnding()),
  };
}
