import type { SseEvent } from "./sse-event.js";

type Rule = readonly [holds: (value: unknown) => boolean, problem: string];

const isString = (v: unknown) => typeof v === "string";
// A line break inside `event:` or `id:` would end the field early and let the rest be read as
// further fields: refusing it stops an event name taken from upstream JSON injecting frames.
const isOneLine = (v: unknown) => !/[\r\n]/.test(v as string);
// Readers ignore an id holding NULL, so it could never arrive.
const hasNoNull = (v: unknown) => !(v as string).includes("\0");
const isRetry = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

const optionalFieldRules: Record<"event" | "id" | "retry", readonly Rule[]> = {
  event: [
    [isString, "must be a string"],
    [isOneLine, "has a line break"],
  ],
  id: [
    [isString, "must be a string"],
    [isOneLine, "has a line break"],
    [hasNoNull, "has a NULL character"],
  ],
  retry: [[isRetry, "must be a non-negative integer"]],
};
const optionalFields = Object.entries(optionalFieldRules);

/**
 * Why the value is not an event the encoder can write, or undefined when it is. Data may hold any
 * text; its `\r\n` and `\r` come back as `\n`, SSE having a single line separator inside data.
 */
export function sseEventProblem(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return "an SSE event must be an object";
  const record = value as Record<string, unknown>;
  if (typeof record["data"] !== "string") return "SSE data must be a string";
  for (const [name, rules] of optionalFields) {
    // Undefined reads as absent, as it does for the encoder and for zod's optional().
    if (record[name] === undefined) continue;
    const broken = rules.find(([holds]) => !holds(record[name]));
    if (broken !== undefined) return `SSE ${name} ${broken[1]}`;
  }
  return undefined;
}

/** A type guard for events the encoder can write (the oracle of the property tests). */
export function isSseEvent(value: unknown): value is SseEvent {
  return sseEventProblem(value) === undefined;
}
