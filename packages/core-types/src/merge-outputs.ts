// Several one-output calls as one reply with several outputs: what a gateway does for chat `n` or
// Gemini `candidateCount` toward a provider that returns one output per call (Anthropic, the
// Responses API). Plain functions: no schema is built here.
import type { Alternative, Response } from "./response.js";
import { outputsOf } from "./response-outputs.js";
import type { StreamEvent } from "./stream-event.js";
import type { Usage } from "./usage.js";

const COUNTS = [
  "inputTokens",
  "outputTokens",
  "cachedInputTokens",
  "cacheWriteTokens",
  "thinkingTokens",
] as const;
const SPLIT_COUNTS = ["cacheWrite5mTokens", "cacheWrite1hTokens"] as const;

/**
 * The usage of several calls together: every count added (each call read its own prompt). Unknown
 * if any call's usage is: a biller then estimates the whole rather than charge a part as all.
 */
export function sumUsage(usages: readonly Usage[]): Usage {
  const [first, ...rest] = usages;
  if (first === undefined) throw new RangeError("sumUsage needs at least one usage");
  const sum: Usage = { ...first };
  for (const usage of rest) {
    for (const key of COUNTS) sum[key] += usage[key];
    for (const key of SPLIT_COUNTS) {
      if (usage[key] !== undefined) sum[key] = (sum[key] ?? 0) + usage[key];
    }
    if (usage.known === false) sum.known = false;
  }
  return sum;
}

/**
 * One reply of `responses.length` outputs from one-output replies, in order: the first reply's
 * primary output stays primary (with its id, model and extras), the i-th reply's primary output
 * becomes alternative i, and the usage is the sum of all.
 */
export function mergeResponses(responses: readonly Response[]): Response {
  const [first, ...rest] = responses;
  if (first === undefined) throw new RangeError("mergeResponses needs at least one response");
  const alternatives: Alternative[] = [...(first.alternatives ?? [])];
  rest.forEach((response, position) => {
    const primary = outputsOf(response)[0];
    // A reply with no output at all (`noOutput`) still holds its place, as an empty output.
    const output = primary ?? {
      index: 0,
      message: { role: "assistant" as const, parts: [] },
      finishReason: response.finishReason,
    };
    alternatives.push({ ...output, index: position + 1 });
  });
  const merged: Response = { ...first, usage: sumUsage(responses.map((r) => r.usage)) };
  if (alternatives.length > 0) merged.alternatives = alternatives;
  return merged;
}

/**
 * The canonical streams of one-output calls as one stream of several outputs, event by event as
 * they come: stream i's events are those of alternative i (stream 0 the primary output's), the
 * primary stream's `response-start` opens the whole (other streams' events wait for it, or for
 * its end), usage is the running sum of each stream's latest, and the first error ends the merged
 * stream (`failed` then says so; later events are dropped).
 */
export class OutputsMerger {
  private readonly usages: (Usage | undefined)[];
  private primaryOpen = false;
  private waiting: [number, StreamEvent][] = [];
  private failedWith: StreamEvent | undefined;

  constructor(count: number) {
    this.usages = new Array<Usage | undefined>(count).fill(undefined);
  }

  /** Whether an error event has ended the merged stream. */
  get failed(): boolean {
    return this.failedWith !== undefined;
  }

  /** Stream `stream`'s event, as events of the merged stream. */
  push(stream: number, event: StreamEvent, emit: (event: StreamEvent) => void): void {
    if (this.failedWith !== undefined) return;
    if (event.type === "error") {
      this.failedWith = event;
      this.waiting = [];
      emit(event);
      return;
    }
    if (stream !== 0 && !this.primaryOpen) {
      this.waiting.push([stream, event]);
      return;
    }
    this.pass(stream, event, emit);
    if (stream === 0 && !this.primaryOpen && event.type === "response-start") this.open(emit);
  }

  /** Stream `stream` has ended: a primary stream that never started lets the others through. */
  end(stream: number, emit: (event: StreamEvent) => void): void {
    if (stream === 0 && !this.primaryOpen && this.failedWith === undefined) this.open(emit);
  }

  private open(emit: (event: StreamEvent) => void): void {
    this.primaryOpen = true;
    const waiting = this.waiting;
    this.waiting = [];
    for (const [stream, event] of waiting) this.pass(stream, event, emit);
  }

  private pass(stream: number, event: StreamEvent, emit: (event: StreamEvent) => void): void {
    switch (event.type) {
      case "response-start":
        if (stream === 0) emit(event);
        return;
      case "usage": {
        this.usages[stream] = event.usage;
        const known = this.usages.filter((u): u is Usage => u !== undefined);
        emit({ type: "usage", usage: sumUsage(known) });
        return;
      }
      case "error":
        emit(event);
        return;
      case "provider-extras":
        // The whole reply's fields (Gemini prompt feedback): the primary call's stand for it.
        if (stream === 0) emit(event);
        return;
      default:
        emit(stream === 0 ? event : { ...event, alternative: stream });
    }
  }
}
