import type { SseMessage } from "@interlingua/core-types";
import { encodeSseEvent } from "@interlingua/sse";
import { keepAliveAt } from "./relay-stage.ts";

/** How whole messages are written for the client: as SSE frames or as a streamed JSON array. */
export interface ClientFraming {
  frame(message: SseMessage): string;
  /** The text after the last message. */
  close(): string;
  /** The keep-alive that fits between two messages, if the framing has one. */
  keepAlive(): string | undefined;
}

const SSE_KEEP_ALIVE = keepAliveAt("frame", "\n");

/** SSE frames with LF line ends; stateless, so one serves every stream. */
export const SSE_FRAMING: ClientFraming = {
  frame: (message) => encodeSseEvent(message),
  close: () => "",
  keepAlive: () => SSE_KEEP_ALIVE,
};

/**
 * The JSON array that native streamGenerateContent returns without `alt=sse`: `[` first element
 * `,\r\n` next element ... `]`, each element sent as soon as it exists; an empty stream is `[]`.
 * JSON has no comments, so an idle array gets no keep-alive.
 */
export function jsonArrayFraming(): ClientFraming {
  let opened = false;
  return {
    frame(message) {
      const text = (opened ? ",\r\n" : "[") + message.data;
      opened = true;
      return text;
    },
    close: () => (opened ? "]" : "[]"),
    keepAlive: () => undefined,
  };
}
