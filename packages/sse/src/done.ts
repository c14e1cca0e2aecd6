import type { SseEvent } from "./sse-event.js";

/** The data of the event that ends an OpenAI-style stream. */
export const DONE = "[DONE]";

export function isDone(event: SseEvent): boolean {
  return event.data === DONE;
}

/** `data: [DONE]`, a fresh object each time so callers may extend it. */
export function doneEvent(): SseEvent {
  return { data: DONE };
}
