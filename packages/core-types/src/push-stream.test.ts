import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PushTransformer } from "./codec.js";
import { pushStream } from "./push-stream.js";

/** Splits each string into its characters, and at the end says how many it saw. */
const splitter = (): PushTransformer<string, string> => {
  let seen = 0;
  return {
    push(text, emit) {
      for (const c of text) {
        seen++;
        emit(c);
      }
    },
    end(emit) {
      emit(`#${seen}`);
    },
  };
};

/** Upper-cases, holding back every second input until the next (a stateful stage). */
const pairer = (): PushTransformer<string, string> => {
  let held: string | undefined;
  return {
    push(text, emit) {
      if (held === undefined) held = text;
      else {
        emit((held + text).toUpperCase());
        held = undefined;
      }
    },
    end(emit) {
      if (held !== undefined) emit(held.toUpperCase());
      emit("!");
    },
  };
};

const source = (chunks: string[]) =>
  new ReadableStream<string>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of stream) out.push(x);
  return out;
}

/** The same stages as ordinary TransformStreams: what a pipe chain must give. */
const plain = <I, O>(t: PushTransformer<I, O>) =>
  new TransformStream<I, O>({
    transform: (x, c) => t.push(x, (o) => c.enqueue(o)),
    flush: (c) => t.end((o) => c.enqueue(o)),
  });

describe("pushStream", () => {
  it("a fused chain gives what the same chain of TransformStreams gives", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ maxLength: 6 }), { maxLength: 8 }), async (chunks) => {
        const fused = source(chunks)
          .pipeThrough(pushStream(splitter()))
          .pipeThrough(pushStream(pairer()))
          .pipeThrough(pushStream(splitter()));
        const piped = source(chunks)
          .pipeThrough(plain(splitter()))
          .pipeThrough(plain(pairer()))
          .pipeThrough(plain(splitter()));
        expect(await collect(fused)).toEqual(await collect(piped));
      }),
    );
  });

  it("fuses: the first stage's readable is locked and the result is the last stage's readable", async () => {
    const first = pushStream(splitter());
    const second = pushStream(pairer());
    const out = first.readable.pipeThrough(second);
    expect(out).toBe(second.readable);
    expect(first.readable.locked).toBe(true);
    expect(second.writable.locked).toBe(true);
    source(["ab"]).pipeTo(first.writable);
    expect(await collect(out)).toEqual(["AB", "#2", "!"]);
  });

  it("output reaches the stage's own readable when the caller ignores pipeThrough's result", async () => {
    const second = pushStream(pairer());
    source(["xy"]).pipeThrough(pushStream(splitter())).pipeThrough(second);
    expect(await collect(second.readable)).toEqual(["XY", "#2", "!"]);
  });

  it("text stages give one UTF-8 chunk per write, fused or not", async () => {
    const encode = () =>
      pushStream<string>({ push: (t, emit) => emit(`<${t}>`), end() {} }, { utf8: true });
    const alone = await collect(source(["a", "é"]).pipeThrough(encode()));
    expect(alone.map((b) => new TextDecoder().decode(b))).toEqual(["<a>", "<é>"]);
    const fused = await collect(
      source(["ab", "c"]).pipeThrough(pushStream(splitter())).pipeThrough(encode()),
    );
    expect(fused.map((b) => new TextDecoder().decode(b))).toEqual(["<a><b>", "<c>", "<#3>"]);
  });

  it("a throw in a later stage errors the result and cancels the source", async () => {
    let cancelled: unknown;
    const src = new ReadableStream<string>({
      pull(controller) {
        controller.enqueue("boom");
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const failing = pushStream<string, string>({
      push() {
        throw new Error("bad input");
      },
      end() {},
    });
    const out = src.pipeThrough(pushStream(splitter())).pipeThrough(failing);
    await expect(collect(out)).rejects.toThrow("bad input");
    await expect.poll(() => (cancelled as Error | undefined)?.message).toBe("bad input");
  });

  it("a reader that cancels the result cancels the source", async () => {
    let cancelled: unknown;
    const src = new ReadableStream<string>({
      pull(controller) {
        controller.enqueue("xy");
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    const out = src.pipeThrough(pushStream(splitter())).pipeThrough(pushStream(pairer()));
    const reader = out.getReader();
    expect((await reader.read()).value).toBe("XY");
    await reader.cancel("gone");
    await expect.poll(() => cancelled).toBe("gone");
  });

  it("backpressure: a source is read no further ahead of a stalled reader than a pipe would", async () => {
    let pulled = 0;
    const src = new ReadableStream<string>(
      {
        pull(controller) {
          // Bounded, so a stage without backpressure fails the count instead of spinning.
          if (++pulled > 1000) controller.close();
          else controller.enqueue("ab");
        },
      },
      { highWaterMark: 0 },
    );
    const out = src.pipeThrough(pushStream(splitter())).pipeThrough(pushStream(pairer()));
    const reader = out.getReader();
    await reader.read();
    // Let the pipe run as far as it will with nobody reading.
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0));
    expect(pulled).toBeLessThanOrEqual(3);
    await reader.cancel();
  });

  it("an ordinary stream on either side is piped, not fused", async () => {
    const out = source(["ab"])
      .pipeThrough(pushStream(splitter()))
      .pipeThrough(plain(pairer()))
      .pipeThrough(pushStream(splitter()));
    expect(await collect(out)).toEqual(["A", "B", "#", "2", "!", "#5"]);
  });
});
