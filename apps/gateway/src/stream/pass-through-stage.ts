import type { SseMessage } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import { chunkSkipper } from "./chunk-skipper.ts";
import type { SseWatch } from "./observe-sse.ts";
import type { PlainChunkTest } from "./plain-chunk.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { createSseSplitter } from "./sse-splitter.ts";

const STREAMING = { stream: true } as const;

/**
 * Same format, same framing: every upstream chunk goes to the client as it came (the very same
 * bytes), while a parse of its text feeds the usage watch (whole chunks of plain deltas are only
 * measured, see `chunkSkipper`). A failure first ends whatever frame it cut in half, then appends
 * `failure`'s error frames.
 */
export function passThroughStage(
  watch: SseWatch,
  failure: (error: unknown) => SseMessage[],
  plainChunk?: PlainChunkTest,
): RelayStage {
  const utf8 = new TextDecoder();
  const splitter = createSseSplitter((message) => {
    if (message !== undefined) watch.see(message);
  });
  const skipper = chunkSkipper(plainChunk, watch, splitter);
  const feed = (bytes: Uint8Array) => splitter.feed(utf8.decode(bytes, STREAMING));
  const position = () => (skipper.carrying ? "inside" : splitter.position);
  return {
    push(chunk) {
      if (skipper.skip(chunk) !== undefined) return chunk;
      const carried = skipper.takeCarry();
      if (carried !== undefined) feed(carried);
      feed(chunk);
      return chunk;
    },
    end() {
      const carried = skipper.takeCarry();
      if (carried !== undefined) feed(carried);
      splitter.feed(utf8.decode());
      watch.end();
      return "";
    },
    fail(error) {
      const eol = splitter.lineEnding;
      const frames = failure(error).map((message) => encodeSseEvent(message, { lineEnding: eol }));
      return (position() === "frame" ? "" : eol + eol) + frames.join("");
    },
    keepAlive: () => keepAliveAt(position(), splitter.lineEnding),
  };
}
