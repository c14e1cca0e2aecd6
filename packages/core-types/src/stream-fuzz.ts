/**
 * The property every format's stream decoder is fuzzed for: run behind guardToolArguments, it
 * never hands a client a half-JSON tool argument string, whatever odd frames an upstream sends.
 * Each format brings its own frame arbitrary; the harness and the check are shared.
 */
import fc from "fast-check";
import { accumulateStream } from "./accumulate-stream.js";
import type { PushTransformer, SseMessage } from "./codec.js";
import { guardToolArguments } from "./guard-tool-arguments.js";
import { outputsOf } from "./response-outputs.js";
import type { StreamEvent } from "./stream-event.js";

/** Pieces of JSON argument strings: whole values, cut ones, and the empty string. */
export const ARGUMENT_FRAGMENTS = ['{"a":', "1", ',"b":"x"', "}", "{}", "[", "]", '"s"', " ", ""];

/** The decoder as the gateway runs it across formats: behind guardToolArguments. */
export function decodeGuarded(
  decoder: PushTransformer<SseMessage, StreamEvent>,
  frames: readonly SseMessage[],
): StreamEvent[] {
  const guarded = guardToolArguments(decoder);
  const events: StreamEvent[] = [];
  for (const frame of frames) guarded.push(frame, (e) => events.push(e));
  guarded.end((e) => events.push(e));
  return events;
}

/** Throws unless every accumulated call has JSON arguments, or the stream ended with an error. */
export function assertNoHalfJson(events: StreamEvent[]): void {
  const failedAt = events.findIndex((e) => e.type === "error");
  if (failedAt >= 0) {
    const after = events.slice(failedAt + 1).find((e) => e.type !== "usage");
    if (after) throw new Error(`a ${after.type} event followed the error event`);
    return;
  }
  for (const output of outputsOf(accumulateStream(events))) {
    for (const part of output.message.parts) {
      if (part.type !== "tool-call") continue;
      try {
        JSON.parse(part.arguments);
      } catch {
        throw new Error(`tool call ${part.id} has half-JSON arguments: ${part.arguments}`);
      }
    }
  }
}

/** For fc.assert: any sequence of up to maxLength frames decodes with no half-JSON call. */
export function noHalfJsonProperty(
  frame: fc.Arbitrary<SseMessage>,
  decoder: () => PushTransformer<SseMessage, StreamEvent>,
  maxLength: number,
) {
  return fc.property(fc.array(frame, { maxLength }), (frames) => {
    assertNoHalfJson(decodeGuarded(decoder(), frames));
  });
}
