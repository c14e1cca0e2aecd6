import type { StreamFraming } from "@interlingua/core-types";
import { encodeSseEvent } from "./encode-sse-event.js";

const KEEP_ALIVE = ": keep-alive\n\n";

/**
 * SSE frames with LF line ends, and a `: keep-alive` comment frame for an idle stream (between
 * frames, where it cannot change what the bytes mean). Stateless, so one serves every stream.
 */
export const sseFraming: StreamFraming = {
  frame: (message) => encodeSseEvent(message),
  close: () => "",
  keepAlive: () => KEEP_ALIVE,
};
