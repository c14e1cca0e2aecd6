import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sseFrames } from "../test/arbitraries.js";
import { concatBytes, fromUtf8, utf8 } from "../test/streams.js";
import { decodeSseText, encodeSseEvent, withKeepAlive } from "./index.js";
import { readAll, splitBytes } from "./testing.js";

/** A source the test writes to by hand. */
function manualSource() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    stream,
    push: (text: string) => controller.enqueue(utf8.encode(text)),
    pushBytes: (bytes: Uint8Array) => controller.enqueue(bytes),
    close: () => controller.close(),
    fail: (error: unknown) => controller.error(error),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("withKeepAlive", () => {
  it("fills silence between frames and hands data on at once", async () => {
    const source = manualSource();
    const reader = withKeepAlive(source.stream, 1000).getReader();
    const next = async () => fromUtf8((await reader.read()).value!);

    source.push("data: 1\n\n");
    expect(await next()).toBe("data: 1\n\n");
    const waiting = reader.read();
    await vi.advanceTimersByTimeAsync(999);
    source.push("data: 2\n\n");
    expect(fromUtf8((await waiting).value!)).toBe("data: 2\n\n");

    const idle = reader.read();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fromUtf8((await idle).value!)).toBe(": keep-alive\n\n");
    const again = reader.read();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fromUtf8((await again).value!)).toBe(": keep-alive\n\n");

    source.close();
    expect((await reader.read()).done).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("uses the given comment and the stream's own line ends", async () => {
    const source = manualSource();
    const reader = withKeepAlive(source.stream, 50, "ping").getReader();
    source.push("data: 1\r\n\r\n");
    await reader.read();
    const idle = reader.read();
    await vi.advanceTimersByTimeAsync(50);
    expect(fromUtf8((await idle).value!)).toBe(": ping\r\n\r\n");
  });

  it("sends a lone comment line inside a frame, and nothing mid-line", async () => {
    const source = manualSource();
    const reader = withKeepAlive(source.stream, 100).getReader();
    const out: string[] = [];
    const drain = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        out.push(fromUtf8(value));
      }
    })();

    source.push("data: a\n");
    await vi.advanceTimersByTimeAsync(100);
    source.push("data: b");
    await vi.advanceTimersByTimeAsync(350);
    source.push("\r");
    await vi.advanceTimersByTimeAsync(250);
    source.push("\n\r\n");
    source.close();
    await drain;

    expect(out).toEqual(["data: a\n", ": keep-alive\n", "data: b", "\r", "\n\r\n"]);
    expect(decodeSseText(out.join(""))).toEqual([{ data: "a\nb" }]);
  });

  it("runs no timer while nobody reads", async () => {
    const source = manualSource();
    const stream = withKeepAlive(source.stream, 10);
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBe(0);
    const reader = stream.getReader();
    const idle = reader.read();
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(10);
    await idle;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("stops its timer and cancels the source when the reader cancels", async () => {
    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>({
      cancel(reason) {
        cancelled = reason;
      },
    });
    const reader = withKeepAlive(source, 10).getReader();
    const pending = reader.read();
    await vi.advanceTimersByTimeAsync(0); // the first pull waits for start()
    expect(vi.getTimerCount()).toBe(1);
    await reader.cancel("client gone");
    expect(vi.getTimerCount()).toBe(0);
    expect(cancelled).toBe("client gone");
    expect((await pending).done).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes a source error on and stops its timer", async () => {
    const source = manualSource();
    const reader = withKeepAlive(source.stream, 10).getReader();
    const pending = reader.read();
    source.fail(new Error("upstream reset"));
    await expect(pending).rejects.toThrow("upstream reset");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("refuses an interval that is not positive", () => {
    expect(() => withKeepAlive(new ReadableStream(), 0)).toThrow(RangeError);
    expect(() => withKeepAlive(new ReadableStream(), Number.NaN)).toThrow(RangeError);
  });

  it("never changes what the stream decodes to, however it stalls", async () => {
    const fillers = new Set(
      ["\n", "\r\n"].flatMap((lineEnding) => {
        const frame = encodeSseEvent({ comment: "keep-alive" }, { lineEnding: lineEnding as "\n" });
        return [frame, frame.slice(0, -lineEnding.length)];
      }),
    );
    const injected = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        sseFrames,
        fc.constantFrom<"\n" | "\r\n">("\n", "\r\n"),
        fc.array(fc.tuple(fc.nat({ max: 600 }), fc.nat({ max: 250 })), { maxLength: 12 }),
        async (frames, lineEnding, stalls) => {
          const wire = utf8.encode(frames.map((f) => encodeSseEvent(f, { lineEnding })).join(""));
          const chunks = splitBytes(
            wire,
            stalls.map(([at]) => at),
          );
          const source = manualSource();
          const all = readAll(withKeepAlive(source.stream, 100));
          for (const [i, chunk] of chunks.entries()) {
            await vi.advanceTimersByTimeAsync(stalls[i]?.[1] ?? 0);
            source.pushBytes(chunk);
          }
          source.close();
          const out = await all;

          const data = out.filter((c) => !fillers.has(fromUtf8(c)));
          for (const c of out.filter((c) => fillers.has(fromUtf8(c)))) {
            injected.set(fromUtf8(c), (injected.get(fromUtf8(c)) ?? 0) + 1);
          }
          expect(data).toEqual(chunks);
          expect(decodeSseText(fromUtf8(concatBytes(out)))).toEqual(decodeSseText(fromUtf8(wire)));
          expect(vi.getTimerCount()).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
    // The stalls did make it inject (the other tests pin down each kind).
    expect(injected.size).toBeGreaterThan(0);
  });
});
