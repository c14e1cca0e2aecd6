import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cuts as cutArbitrary, expectedOf, sseFrames } from "../test/arbitraries.js";
import {
  createSseSplitter,
  encodeSseEvent,
  SseBufferOverflowError,
  type SseEvent,
} from "./index.js";

/** Every way of cutting `input` into two or three pieces (and whole). */
function cuts(input: string): string[][] {
  const out: string[][] = [[input]];
  for (let i = 1; i < input.length; i++) {
    out.push([input.slice(0, i), input.slice(i)]);
    for (let j = i + 1; j < input.length; j += 3) {
      out.push([input.slice(0, i), input.slice(i, j), input.slice(j)]);
    }
  }
  return out;
}

function split(pieces: string[]) {
  const blocks: { message: SseEvent | undefined; raw: string }[] = [];
  const splitter = createSseSplitter((message, raw) => blocks.push({ message, raw }));
  for (const piece of pieces) splitter.feed(piece);
  splitter.flush();
  return { blocks, position: splitter.position(), lineEnding: splitter.lineEnding() };
}

describe("createSseSplitter", () => {
  const STREAM =
    "event: a\ndata: one\n\n: comment\n\ndata: x\r\ndata:  y\r\nid: 7\r\nretry: 50\r\n\r\n" +
    "data\rfoo: ignored\revent:b\r\r";
  const EXPECTED: SseEvent[] = [
    { event: "a", data: "one" },
    { data: "x\n y", id: "7", retry: 50 },
    { data: "", event: "b" },
  ];

  it("parses the standard's line endings, fields and comments however the text is cut", () => {
    for (const pieces of cuts(STREAM)) {
      const { blocks } = split(pieces);
      expect(
        blocks.flatMap((b) => (b.message === undefined ? [] : [b.message])),
        JSON.stringify(pieces),
      ).toEqual(EXPECTED);
      // The blocks' exact text is the stream again, so re-framing can pass them on verbatim; a
      // CRLF cut in half stays with its block, so dropping a block leaves none of it behind.
      expect(blocks.map((b) => b.raw).join("")).toBe(STREAM);
      expect(blocks.filter((b) => b.raw.startsWith("\n"))).toEqual([]);
    }
  });

  it("dispatches no block the stream never ended, and says where the text stopped", () => {
    expect(split(["data: a\n\n"]).position).toBe("frame");
    expect(split(["data: a\n\ndata: b\n"])).toMatchObject({
      blocks: [{ message: { data: "a" } }],
      position: "line",
    });
    expect(split(["data: a\n\ndata: b"]).position).toBe("inside");
    // A CR may be the first half of a CRLF: nothing may go between the two.
    expect(split(["data: a\r"]).position).toBe("inside");
    expect(split(["data: a\r\n"])).toMatchObject({ position: "line", lineEnding: "\r\n" });
    expect(split([]).lineEnding).toBe("\n");
  });

  it("keeps a line spread over many pieces whole, and says it is inside a frame meanwhile", () => {
    const blocks: { message: SseEvent | undefined; raw: string }[] = [];
    const splitter = createSseSplitter((message, raw) => blocks.push({ message, raw }));
    splitter.feed("data: a");
    for (let i = 0; i < 5; i++) splitter.feed("bc");
    expect(splitter.position()).toBe("inside");
    splitter.feed("d\r");
    expect(splitter.position()).toBe("inside");
    splitter.feed("\nid: 1");
    splitter.feed("2\r\n\r\n");
    expect(blocks).toEqual([
      { message: { data: "abcbcbcbcbcd", id: "12" }, raw: "data: abcbcbcbcbcd\r\nid: 12\r\n\r\n" },
    ]);
    expect(splitter.position()).toBe("frame");
  });

  it("reads a long line in time proportional to its length, not its square", () => {
    // 16 MiB in 4 KiB pieces: copying the line once per piece would move some 32 GiB.
    const splitter = createSseSplitter(() => {});
    const piece = "x".repeat(4096);
    const started = performance.now();
    splitter.feed("data: ");
    for (let i = 0; i < 4096; i++) splitter.feed(piece);
    splitter.feed("\n\n");
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it("throws past maxBufferSize instead of buffering an endless frame", () => {
    const splitter = createSseSplitter(() => {}, { maxBufferSize: 1000 });
    splitter.feed("data: ok\n\n");
    splitter.feed("data: ");
    splitter.feed("x".repeat(500));
    expect(() => splitter.feed("x".repeat(500))).toThrow(SseBufferOverflowError);
    // Many lines in one frame count too.
    const lines = createSseSplitter(() => {}, { maxBufferSize: 1000 });
    expect(() => lines.feed(`${"data: x\n".repeat(200)}`)).toThrow(
      "an SSE frame is longer than 1000 characters",
    );
    // Whole frames of any number never do.
    const frames = createSseSplitter(() => {}, { maxBufferSize: 1000 });
    for (let i = 0; i < 1000; i++) frames.feed("data: 0123456789\n\n");
  });

  it("reads what encodeSseEvent writes as decodeSse does, cut anywhere, keeping every byte", () => {
    fc.assert(
      fc.property(sseFrames, fc.boolean(), cutArbitrary, (frames, crlf, at) => {
        const text = frames
          .map((frame) => encodeSseEvent(frame, { lineEnding: crlf ? "\r\n" : "\n" }))
          .join("");
        const offsets = [...new Set(at.filter((n) => n < text.length))].sort((a, b) => a - b);
        const pieces = [0, ...offsets].map((from, i) =>
          text.slice(from, offsets[i] ?? text.length),
        );
        const { blocks, position } = split(pieces);
        expect(blocks.flatMap((b) => (b.message === undefined ? [] : [b.message]))).toEqual(
          expectedOf(frames).events,
        );
        expect(blocks.map((b) => b.raw).join("")).toBe(text);
        expect(position).toBe("frame");
      }),
    );
  });
});
