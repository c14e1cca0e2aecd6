import { describe, expect, it } from "vitest";
import { accumulateStream, StreamAccumulator } from "./accumulate-stream.js";
import { normalizeStreamEvents } from "./normalize-stream-events.js";
import { responseToEvents } from "./response-to-events.js";
import type { StreamEvent } from "./stream-event.js";
import * as arb from "./testing.js";
import { fc } from "./testing.js";

/** Splits every delta of a sequence into random fragments, as an upstream's chunking would. */
const rechunk = (events: StreamEvent[]) =>
  fc.array(fc.nat({ max: 8 }), { minLength: events.length, maxLength: events.length }).map((cuts) =>
    events.flatMap((event, i): StreamEvent[] => {
      if (!("delta" in event) || event.delta.length < 2) return [event];
      const at = Math.min(cuts[i] ?? 0, event.delta.length);
      return [
        { ...event, delta: event.delta.slice(0, at) },
        { ...event, delta: event.delta.slice(at) },
      ];
    }),
  );

describe("law 4: a stream, accumulated, equals the response", () => {
  it("accumulate(responseToEvents(r)) = r", () => {
    fc.assert(
      fc.property(arb.response, (response) => {
        expect(accumulateStream(responseToEvents(response))).toEqual(response);
      }),
    );
  });

  it("holds however the deltas are chunked", () => {
    fc.assert(
      fc.property(
        arb.response.chain((r) =>
          rechunk(responseToEvents(r)).map((events) => [r, events] as const),
        ),
        ([response, events]) => {
          expect(accumulateStream(events)).toEqual(response);
        },
      ),
    );
  });

  it("keeps the last usage and the first response-start", () => {
    const first = {
      inputTokens: 1,
      outputTokens: 0,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    };
    const last = { ...first, outputTokens: 9 };
    const result = accumulateStream([
      { type: "response-start", id: "a", model: "m", created: 1 },
      { type: "usage", usage: first },
      { type: "response-start", id: "b", model: "m", created: 2 },
      { type: "text-delta", index: 0, delta: "hi" },
      { type: "finish", finishReason: { unified: "stop", raw: "end_turn" } },
      { type: "usage", usage: last },
    ]);
    expect(result).toEqual({
      id: "a",
      model: "m",
      created: 1,
      message: { role: "assistant", parts: [{ type: "text", text: "hi" }] },
      finishReason: { unified: "stop", raw: "end_turn" },
      usage: last,
    });
  });
});

describe("logprobs events", () => {
  const token = (t: string, logprob: number) => ({ token: t, logprob, topLogprobs: [] });
  const events: StreamEvent[] = [
    { type: "response-start", id: "a", model: "m", created: 1 },
    { type: "text-delta", index: 0, delta: "Hi" },
    { type: "logprobs", content: [token("Hi", -0.1)] },
    { type: "text-delta", index: 0, delta: "!" },
    { type: "logprobs", content: [token("!", -0.5)], average: -0.3 },
    { type: "finish", finishReason: { unified: "stop" } },
  ];

  it("append each output's tokens in order; a later average replaces an earlier one", () => {
    expect(accumulateStream(events).logprobs).toEqual({
      content: [token("Hi", -0.1), token("!", -0.5)],
      average: -0.3,
    });
  });

  it("normalize to one event per output, before the finishes", () => {
    expect(normalizeStreamEvents(events).slice(-2)).toEqual([
      { type: "logprobs", content: [token("Hi", -0.1), token("!", -0.5)], average: -0.3 },
      { type: "finish", finishReason: { unified: "stop" } },
    ]);
  });
});

describe("provider-extras events", () => {
  const blocked = { gemini: { promptFeedback: { blockReason: "SAFETY" } } };
  const rated = { gemini: { promptFeedback: { blockReason: "OTHER", safetyRatings: [] } } };
  const events: StreamEvent[] = [
    { type: "response-start", id: "a", model: "m", created: 1 },
    { type: "provider-extras", providerExtras: blocked },
    { type: "text-delta", index: 0, delta: "Hi" },
    { type: "provider-extras", providerExtras: rated },
    {
      type: "finish",
      finishReason: { unified: "stop" },
      providerExtras: { gemini: { safetyRatings: [] } },
    },
  ];

  it("fill response.providerExtras: a later one replaces the same provider's; the primary output's finish adds its own", () => {
    const response = accumulateStream(events);
    expect(response.providerExtras).toEqual({ gemini: { ...rated.gemini, safetyRatings: [] } });
  });

  it("normalize to one event, right after the response-start", () => {
    expect(normalizeStreamEvents(events).slice(0, 2)).toEqual([
      { type: "response-start", id: "a", model: "m", created: 1 },
      { type: "provider-extras", providerExtras: rated },
    ]);
  });
});

describe("normalizeStreamEvents", () => {
  it("is idempotent", () => {
    fc.assert(
      fc.property(arb.streamEvents(), (events) => {
        const once = normalizeStreamEvents(events);
        expect(normalizeStreamEvents(once)).toEqual(once);
      }),
    );
  });

  it("does not depend on chunking, and keeps the accumulated response", () => {
    fc.assert(
      fc.property(
        arb
          .streamEvents()
          .chain((events) => rechunk(events).map((split) => [events, split] as const)),
        ([events, split]) => {
          expect(normalizeStreamEvents(split)).toEqual(normalizeStreamEvents(events));
          expect(accumulateStream(normalizeStreamEvents(events))).toEqual(accumulateStream(events));
        },
      ),
    );
  });

  it("renumbers parts by first appearance and brackets them", () => {
    expect(
      normalizeStreamEvents([
        { type: "text-delta", index: 3, delta: "a" },
        { type: "signature-delta", index: 3, signature: "s1" },
        { type: "text-delta", index: 3, delta: "b" },
        { type: "signature-delta", index: 3, signature: "s2" },
        { type: "tool-call-start", index: 7, id: "c", name: "f" },
        { type: "tool-arguments-delta", index: 7, delta: "" },
        { type: "part-end", index: 3 },
      ]),
    ).toEqual([
      { type: "part-start", index: 0, kind: "text" },
      { type: "text-delta", index: 0, delta: "ab" },
      { type: "tool-call-start", index: 1, id: "c", name: "f" },
      { type: "signature-delta", index: 0, signature: "s1s2" },
      { type: "part-end", index: 0 },
      { type: "part-end", index: 1 },
    ]);
  });
});

describe("a stream that broke off", () => {
  it("endedOnly keeps the parts whose part-end came, not the one cut in the middle", () => {
    const accumulator = new StreamAccumulator();
    const events: StreamEvent[] = [
      { type: "response-start", id: "r", model: "m", created: 1 },
      { type: "text-delta", index: 0, delta: "Let me check." },
      { type: "part-end", index: 0 },
      { type: "tool-call-start", index: 1, id: "call_1", name: "f" },
      { type: "tool-arguments-delta", index: 1, delta: '{"city":"Par' },
    ];
    for (const event of events) accumulator.push(event);
    expect(accumulator.result({ endedOnly: true }).message.parts).toEqual([
      { type: "text", text: "Let me check." },
    ]);
    expect(accumulator.result().message.parts).toHaveLength(2);
  });
});
