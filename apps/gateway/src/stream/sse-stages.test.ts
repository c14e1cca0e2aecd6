import type { SseMessage, StreamEvent } from "@interlingua/core-types";
import { isChatUsageOnlyChunk } from "@interlingua/fmt-chat/tables";
import { nativeJsonArrayFraming } from "@interlingua/fmt-native/tables";
import { describe, expect, it } from "vitest";
import type { SseWatch } from "./observe-sse.ts";
import { SAMPLED_DELTAS, watchSse } from "./observe-sse.ts";
import { passThroughStage } from "./pass-through-stage.ts";
import { reframeStage } from "./reframe-stage.ts";

const utf8 = new TextEncoder();

const recording = (watched: SseMessage[]): SseWatch => ({
  see: (message) => void watched.push(message),
  end: () => {},
  samplesWanted: () => 0,
  keepSample: () => {},
  skipFrames: () => {},
  skippedChars: () => 0,
});

describe("passThroughStage", () => {
  it("sends each upstream chunk as the very same bytes while the watch reads its frames", () => {
    const watched: SseMessage[] = [];
    const stage = passThroughStage(recording(watched), () => []);
    const chunks = [utf8.encode('data: {"a":1}\n\nda'), utf8.encode("ta: é\n\n")];
    const out = chunks.map((chunk) => stage.push(chunk));
    expect(out[0]).toBe(chunks[0]);
    expect(out[1]).toBe(chunks[1]);
    expect(stage.end()).toBe("");
    expect(watched).toEqual([{ data: '{"a":1}' }, { data: "é" }]);
  });

  it("ends a frame the failure cut in half before its error frames, and keep-alives fit in", () => {
    const stage = passThroughStage(recording([]), (error) => [
      { event: "error", data: String(error) },
    ]);
    stage.push(utf8.encode("data: par"));
    expect(stage.keepAlive()).toBeUndefined();
    expect(stage.fail("reset")).toBe("\n\nevent: error\ndata: reset\n\n");
    const idle = passThroughStage(recording([]), () => []);
    idle.push(utf8.encode("event: x\r\n"));
    expect(idle.keepAlive()).toBe(": keep-alive\r\n");
    idle.push(utf8.encode("data: y\r\n\r\n"));
    expect(idle.keepAlive()).toBe(": keep-alive\r\n\r\n");
  });
});

describe("reframeStage", () => {
  const USAGE_ONLY = '{"choices":[],"usage":{"prompt_tokens":1}}';

  it("passes whole kept frames as their upstream text and keeps the unasked usage chunk out", () => {
    const watched: SseMessage[] = [];
    const stage = reframeStage(recording(watched), {
      keep: (m) => !isChatUsageOnlyChunk(m.data),
      framing: "raw",
      failure: () => [],
    });
    const first = stage.push(utf8.encode('data:{"choices":[{"x":1}]}\n\n: ping\n\ndata: ha'));
    const second = stage.push(utf8.encode(`lf\n\ndata: ${USAGE_ONLY}\n\ndata: [DONE]\n\n`));
    expect([first, second, stage.end()]).toEqual([
      'data:{"choices":[{"x":1}]}\n\n: ping\n\n',
      "data: half\n\ndata: [DONE]\n\n",
      "",
    ]);
    // The watch still saw the usage chunk: billing reads it.
    expect(watched.map((m) => m.data)).toEqual([
      '{"choices":[{"x":1}]}',
      "half",
      USAGE_ONLY,
      "[DONE]",
    ]);
  });

  it("re-frames as a streamed JSON array, with the error as its last element on a failure", () => {
    const stage = reframeStage(recording([]), {
      keep: () => true,
      framing: nativeJsonArrayFraming(),
      failure: () => [{ data: '{"error":1}' }],
    });
    expect(stage.push(utf8.encode('data: {"a":1}\r\n\r\ndata: {"b":2}\r\n\r\n'))).toBe(
      '[{"a":1},\r\n{"b":2}',
    );
    expect(stage.keepAlive()).toBeUndefined();
    expect(stage.fail(new Error("reset"))).toBe(',\r\n{"error":1}]');
    const empty = reframeStage(recording([]), {
      keep: () => true,
      framing: nativeJsonArrayFraming(),
      failure: () => [],
    });
    expect(empty.end()).toBe("[]");
  });
});

describe("watchSse", () => {
  it("reports a failing decoder once and stops watching, without throwing", () => {
    const seen: StreamEvent[] = [];
    const errors: unknown[] = [];
    let pushes = 0;
    const watch = watchSse({
      decoder: {
        push(message, emit) {
          pushes++;
          if (message.data === "bad") throw new Error("bad frame");
          emit({ type: "finish", finishReason: { unified: "stop", raw: "stop" } } as StreamEvent);
        },
        end: () => {
          throw new Error("not reached");
        },
      },
      onEvent: (event) => void seen.push(event),
      onDecodeError: (error) => void errors.push(error),
    });
    watch.see({ data: "ok" });
    watch.see({ data: "bad" });
    watch.see({ data: "ok" });
    watch.end();
    expect([seen.length, pushes, errors.map((e) => (e as Error).message)]).toEqual([
      1,
      2,
      ["bad frame"],
    ]);
  });
});

describe("watchSse with plain deltas", () => {
  const text = (i: number) => ({ data: `t${"x".repeat(i % 3)}` });
  const decoder = () => {
    const seen: string[] = [];
    return {
      seen,
      decoder: {
        push(message: SseMessage, emit: (event: StreamEvent) => void) {
          seen.push(message.data);
          if (message.data === "usage") {
            emit({ type: "usage", usage: { inputTokens: 1, outputTokens: 2 } } as StreamEvent);
          } else emit({ type: "text-delta", index: 0, delta: message.data });
        },
        end: () => {},
      },
    };
  };

  /** A watch whose plain deltas start with "t"; it counts the decoders its sample is measured by. */
  const plainWatch = () => {
    const main = decoder();
    const samples = decoder();
    const events: StreamEvent[] = [];
    let sampleDecoders = 0;
    const watch = watchSse({
      decoder: main.decoder,
      onEvent: (e) => void events.push(e),
      onDecodeError: () => {},
      plain: {
        test: (m) => m.data.startsWith("t"),
        decoder: () => {
          sampleDecoders++;
          return samples.decoder;
        },
      },
    });
    return { watch, seen: main.seen, events, samples, sampleDecoders: () => sampleDecoders };
  };

  it("decodes no plain delta; measures its sample only when asked, the other frames at its average", () => {
    const { watch, seen, events, samples, sampleDecoders } = plainWatch();
    for (let i = 0; i < SAMPLED_DELTAS + 4; i++) watch.see(text(i));
    watch.skipFrames(6);
    watch.see({ data: "usage" });
    watch.end();
    expect(seen).toEqual(["usage"]);
    expect(sampleDecoders()).toBe(0);
    // Sizes 1, 2, 3, 1, 2, 3, 1, 2 kept; 4 more seen and 6 skipped at their average.
    const sample = Array.from({ length: SAMPLED_DELTAS }, (_, i) => text(i).data.length);
    const sum = sample.reduce((a, b) => a + b, 0);
    expect(watch.skippedChars()).toBeCloseTo(sum + (10 * sum) / SAMPLED_DELTAS, 9);
    expect(watch.skippedChars()).toBeCloseTo(sum + (10 * sum) / SAMPLED_DELTAS, 9);
    expect([sampleDecoders(), samples.seen.length]).toEqual([1, SAMPLED_DELTAS]);
    expect(events.filter((e) => e.type === "usage")).toHaveLength(1);
  });
  it("keeps skipped frames as bytes, and averages over the plain ones among them", () => {
    const { watch, samples, sampleDecoders } = plainWatch();
    // A run of 5 frames, one of them not a plain delta ("start"), then 3 more frames wanted.
    const run = utf8.encode("data: t\n\ndata: start\n\ndata: txx\n\n: c\n\ndata: tx\n\n");
    expect(watch.samplesWanted()).toBe(SAMPLED_DELTAS);
    const copy = Buffer.from(run);
    watch.keepSample(copy, 5);
    copy.fill(0);
    watch.skipFrames(3);
    expect(watch.samplesWanted()).toBe(SAMPLED_DELTAS - 5);
    watch.skipFrames(9);
    expect(sampleDecoders()).toBe(0);
    // Sample: plain deltas of 1, 3 and 2 characters (6 in all) out of 12 counted; the other 9
    // at their average of 2. "start" is decoded in order but is not a plain delta.
    expect(watch.skippedChars()).toBeCloseTo(6 + 9 * 2, 9);
    expect(samples.seen).toEqual(["t", "start", "txx", "tx"]);
  });
});
