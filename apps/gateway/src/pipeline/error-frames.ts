import type { SseMessage, StreamEvent, WireFormat } from "@interlingua/core-types";
import { CLIENT_PROTOCOLS } from "../upstream/protocols.ts";

/** The event a stream ends with when its upstream fails after the first byte. */
export const upstreamStreamFailed = (error: unknown): StreamEvent => ({
  type: "error",
  error: {
    status: 502,
    type: "bad_gateway",
    message: `upstream stream failed: ${error instanceof Error ? error.message : String(error)}`,
  },
});

/**
 * One canonical event as the frames a client of `format` reads (its codec decides the shape; the
 * request id ends a messages error's text).
 */
export function framesOf(format: WireFormat, event: StreamEvent, requestId?: string): SseMessage[] {
  const frames: SseMessage[] = [];
  const encoder = CLIENT_PROTOCOLS[format].codec.stream.encoder({ requestId });
  const collect = (frame: SseMessage) => void frames.push(frame);
  encoder.push(event, collect);
  encoder.end(collect);
  return frames;
}
