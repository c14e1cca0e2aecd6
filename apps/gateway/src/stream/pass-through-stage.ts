import type { SseMessage } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import type { SseWatch } from "./observe-sse.ts";
import { keepAliveAt, type RelayStage } from "./relay-stage.ts";
import { createSseSplitter } from "./sse-splitter.ts";

const STREAMING = { stream: true } as const;

/**
 * Same format, same framing: every upstream chunk goes to the client as it came (the very same
 * bytes), while a parse of its text feeds the usage watch. A failure first ends whatever frame
 * it cut in half, then appends `failure`'s error frames.
 */
export function passThroughStage(
  watch: SseWatch,
  failure: (error: unknown) => SseMessage[],
): RelayStage {
  const utf8 = new TextDecoder();
  const splitter = createSseSplitter((message) => {
    if (message !== undefined) watch.see(message);
  });
  return {
    push(chunk) {
      splitter.feed(utf8.decode(chunk, STREAMING));
      return chunk;
    },
    end() {
      splitter.feed(utf8.decode());
      watch.end();
      return "";
    },
    fail(error) {
      const eol = splitter.lineEnding;
      const frames = failure(error).map((message) => encodeSseEvent(message, { lineEnding: eol }));
      return (splitter.position === "frame" ? "" : eol + eol) + frames.join("");
    },
    keepAlive: () => keepAliveAt(splitter.position, splitter.lineEnding),
  };
}
