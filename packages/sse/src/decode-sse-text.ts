import { createEventParser, type DecodeSseOptions } from "./event-parser.js";
import type { SseEvent } from "./sse-event.js";

/** A whole SSE body to its events, with the same rules as `decodeSse`. */
export function decodeSseText(text: string, options?: DecodeSseOptions): SseEvent[] {
  const events: SseEvent[] = [];
  createEventParser((event) => events.push(event), options).feed(text);
  return events;
}
