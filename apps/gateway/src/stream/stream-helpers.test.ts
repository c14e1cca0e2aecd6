import { describe, expect, it } from "vitest";
import { detachOnCancel, type StreamEnd } from "./detach-on-cancel.ts";
import { dropUsageOnlyChunks } from "./drop-usage-only-chunks.ts";
import { jsonArrayFrames } from "./json-array-frames.ts";
import { recoverStreamErrors } from "./recover-stream-errors.ts";
import { tapStream } from "./tap-stream.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();
const collect = async <T>(stream: ReadableStream<T>) => {
  const out: T[] = [];
  for await (const value of stream) out.push(value);
  return out;
};
const fromArray = <T>(values: T[]) =>
  new ReadableStream<T>({
    start(controller) {
      for (const v of values) controller.enqueue(v);
      controller.close();
    },
  });

describe("jsonArrayFrames", () => {
  it("frames elements as a streamed JSON array", async () => {
    const out = await text(
      fromArray([{ data: '{"a":1}' }, { data: '{"b":2}' }]).pipeThrough(jsonArrayFrames()),
    );
    expect(out).toBe('[{"a":1},\r\n{"b":2}]');
    expect(JSON.parse(out)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it("frames an empty stream as []", async () => {
    expect(await text(fromArray<{ data: string }>([]).pipeThrough(jsonArrayFrames()))).toBe("[]");
  });
});

describe("dropUsageOnlyChunks", () => {
  it("drops only the usage chunk with no choices", async () => {
    const frames = [
      { data: '{"choices":[{"delta":{"content":"hi"}}],"usage":null}' },
      { data: '{"choices":[],"usage":{"prompt_tokens":1}}' },
      { data: "[DONE]" },
    ];
    const out = await collect(fromArray(frames).pipeThrough(dropUsageOnlyChunks()));
    expect(out).toEqual([frames[0], frames[2]]);
  });
});

describe("recoverStreamErrors", () => {
  it("turns a stream failure into a last value", async () => {
    let n = 0;
    const source = new ReadableStream<string>({
      pull(controller) {
        if (n++ === 0) controller.enqueue("first");
        else controller.error(new Error("bad frame"));
      },
    });
    const out = await collect(
      recoverStreamErrors(source, (e) => [`error: ${(e as Error).message}`]),
    );
    expect(out).toEqual(["first", "error: bad frame"]);
  });
});

describe("tapStream", () => {
  it("passes chunks through and lets the side consumer see all of them", async () => {
    const seen: string[] = [];
    const tap = tapStream<string>(async (copy) => {
      for await (const chunk of copy) seen.push(chunk);
    });
    const out = await collect(fromArray(["a", "b", "c"]).pipeThrough(tap.stream));
    await tap.done;
    expect(out).toEqual(["a", "b", "c"]);
    expect(seen).toEqual(["a", "b", "c"]);
  });
});

describe("detachOnCancel", () => {
  const endOf = () => {
    let resolve!: (end: StreamEnd) => void;
    const promise = new Promise<StreamEnd>((r) => {
      resolve = r;
    });
    return { promise, resolve };
  };

  it("reports a complete stream when the client reads it to the end", async () => {
    const end = endOf();
    const out = await text(
      detachOnCancel(
        fromArray([bytes("x"), bytes("y")]),
        { maxMs: 1000, maxBytes: 100 },
        end.resolve,
      ),
    );
    expect(out).toBe("xy");
    expect(await end.promise).toEqual({ complete: true, clientDisconnected: false });
  });

  it("keeps reading the source after the client cancels, to its end", async () => {
    const end = endOf();
    const pulled: number[] = [];
    let i = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled.push(i);
        if (i++ < 5) controller.enqueue(bytes("z"));
        else controller.close();
      },
    });
    const reader = detachOnCancel(source, { maxMs: 1000, maxBytes: 100 }, end.resolve).getReader();
    await reader.read();
    await reader.cancel();
    expect(await end.promise).toEqual({ complete: true, clientDisconnected: true });
    expect(pulled.length).toBe(6);
  });

  it("gives up draining at the byte limit", async () => {
    const end = endOf();
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(bytes("0123456789"));
      },
    });
    const reader = detachOnCancel(endless, { maxMs: 1000, maxBytes: 35 }, end.resolve).getReader();
    await reader.read();
    await reader.cancel();
    expect(await end.promise).toEqual({ complete: false, clientDisconnected: true });
  });

  it("gives up draining at the time limit", async () => {
    const end = endOf();
    const silent = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
    const reader = detachOnCancel(silent, { maxMs: 20, maxBytes: 100 }, end.resolve).getReader();
    void reader.read();
    await reader.cancel();
    expect(await end.promise).toEqual({ complete: false, clientDisconnected: true });
  });
});
