import { describe, expect, it } from "vitest";
import { accumulateStream } from "./accumulate-stream.js";
import { mergeResponses, OutputsMerger, sumUsage } from "./merge-outputs.js";
import type { Response } from "./response.js";
import { responseToEvents } from "./response-to-events.js";
import type { StreamEvent } from "./stream-event.js";
import * as arb from "./testing.js";
import { fc } from "./testing.js";
import type { Usage } from "./usage.js";

/** A reply of one output, as a provider without `n` returns it. */
const oneOutput = arb.response.map((response): Response => {
  const { alternatives: _alternatives, ...single } = response;
  return single;
});

/** The events of several streams interleaved in an order `order` picks, each stream's own kept. */
function interleave(streams: StreamEvent[][], order: number[]): [number, StreamEvent][] {
  const next = streams.map(() => 0);
  const out: [number, StreamEvent][] = [];
  let pick = 0;
  while (out.length < streams.reduce((n, s) => n + s.length, 0)) {
    const open = streams.flatMap((s, i) => ((next[i] ?? 0) < s.length ? [i] : []));
    const stream = open[(order[pick++ % Math.max(order.length, 1)] ?? 0) % open.length] ?? 0;
    const at = next[stream] ?? 0;
    out.push([stream, streams[stream]?.[at] as StreamEvent]);
    next[stream] = at + 1;
  }
  return out;
}

function merged(streams: StreamEvent[][], order: number[]): StreamEvent[] {
  const merger = new OutputsMerger(streams.length);
  const out: StreamEvent[] = [];
  const emit = (event: StreamEvent) => out.push(event);
  for (const [stream, event] of interleave(streams, order)) merger.push(stream, event, emit);
  streams.forEach((_, i) => {
    merger.end(i, emit);
  });
  return out;
}

const usage = (input: number, output: number, extra: Partial<Usage> = {}): Usage => ({
  inputTokens: input,
  outputTokens: output,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  thinkingTokens: 0,
  ...extra,
});

describe("merging one-output calls into one reply", () => {
  it("a merged stream, accumulated, is the merged replies, however the streams interleave", () => {
    fc.assert(
      fc.property(
        fc.array(oneOutput, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat({ max: 7 }), { maxLength: 40 }),
        (responses, order) => {
          const streams = responses.map((r) => responseToEvents(r));
          expect(accumulateStream(merged(streams, order))).toEqual(mergeResponses(responses));
        },
      ),
    );
  });

  it("numbers the outputs by call and adds the calls' usage", () => {
    const reply = (text: string, u: Usage): Response => ({
      id: `id-${text}`,
      model: "txtB-sonnet-4-6",
      created: 1,
      message: { role: "assistant", parts: [{ type: "text", text }] },
      finishReason: { unified: "stop" },
      usage: u,
    });
    const both = mergeResponses([
      reply("a", usage(10, 2, { cacheWrite5mTokens: 3 })),
      reply("b", usage(10, 5)),
    ]);
    expect(both.id).toBe("id-a");
    expect(both.message.parts).toEqual([{ type: "text", text: "a" }]);
    expect(both.alternatives).toEqual([
      {
        index: 1,
        message: { role: "assistant", parts: [{ type: "text", text: "b" }] },
        finishReason: { unified: "stop" },
      },
    ]);
    expect(both.usage).toEqual(usage(20, 7, { cacheWrite5mTokens: 3 }));
  });

  it("reports the sum as unknown when one call's usage is", () => {
    expect(sumUsage([usage(4, 1), { ...usage(0, 0), known: false }]).known).toBe(false);
    expect(sumUsage([usage(4, 1), usage(1, 1)])).toEqual(usage(5, 2));
  });

  it("holds other calls' events until the primary call's stream opens", () => {
    const merger = new OutputsMerger(2);
    const out: StreamEvent[] = [];
    const emit = (event: StreamEvent) => out.push(event);
    merger.push(1, { type: "response-start", id: "second", model: "m", created: 1 }, emit);
    merger.push(1, { type: "text-delta", index: 0, delta: "b" }, emit);
    expect(out).toEqual([]);
    merger.push(0, { type: "response-start", id: "first", model: "m", created: 1 }, emit);
    expect(out).toEqual([
      { type: "response-start", id: "first", model: "m", created: 1 },
      { type: "text-delta", index: 0, delta: "b", alternative: 1 },
    ]);
  });

  it("ends at the first error, whichever call it comes from", () => {
    const merger = new OutputsMerger(2);
    const out: StreamEvent[] = [];
    const emit = (event: StreamEvent) => out.push(event);
    merger.push(0, { type: "response-start", id: "first", model: "m", created: 1 }, emit);
    const error: StreamEvent = {
      type: "error",
      error: { status: 502, type: "bad_gateway", message: "cut" },
    };
    merger.push(1, error, emit);
    merger.push(0, { type: "text-delta", index: 0, delta: "late" }, emit);
    expect(merger.failed).toBe(true);
    expect(out.at(-1)).toEqual(error);
    expect(out).toHaveLength(2);
  });
});
