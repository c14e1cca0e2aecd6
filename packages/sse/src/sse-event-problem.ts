import type { SseEvent } from "./sse-event.js";

// A line break inside `event:` or `id:` would end the field early and let the rest be read as
// further fields: refusing it stops an event name taken from upstream JSON injecting frames.
const LINE_BREAK = /[\r\n]/;

/** Why a present `event` or `id` value cannot be written, if it cannot. */
function oneLineProblem(name: "event" | "id", value: unknown): string | undefined {
  if (typeof value !== "string") return `SSE ${name} must be a string`;
  if (LINE_BREAK.test(value)) return `SSE ${name} has a line break`;
  return undefined;
}

/**
 * Why the value is not an event the encoder can write, or undefined when it is. Data may hold any
 * text; its `\r\n` and `\r` come back as `\n`, SSE having a single line separator inside data.
 * Undefined fields read as absent, as they do for the encoder and for zod's optional(). Written
 * as plain checks: it runs on every frame the encoder writes.
 */
export function sseEventProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "an SSE event must be an object";
  const record = value as Record<string, unknown>;
  if (typeof record["data"] !== "string") return "SSE data must be a string";
  const event = record["event"];
  if (event !== undefined) {
    const problem = oneLineProblem("event", event);
    if (problem !== undefined) return problem;
  }
  const id = record["id"];
  if (id !== undefined) {
    const problem = oneLineProblem("id", id);
    if (problem !== undefined) return problem;
    // Readers ignore an id holding NULL, so it could never arrive.
    if ((id as string).includes("\0")) return "SSE id has a NULL character";
  }
  const retry = record["retry"];
  if (
    retry !== undefined &&
    !(typeof retry === "number" && Number.isSafeInteger(retry) && retry >= 0)
  ) {
    return "SSE retry must be a non-negative integer";
  }
  return undefined;
}

/** A type guard for events the encoder can write (the oracle of the property tests). */
export function isSseEvent(value: unknown): value is SseEvent {
  return sseEventProblem(value) === undefined;
}
