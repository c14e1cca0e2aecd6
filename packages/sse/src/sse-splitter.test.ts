import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cuts as cutArbitrary, expectedOf, sseFrames } from "../test/arbitraries.js";
import { createSseSplitter, encodeSseEvent, type SseEvent } from "./index.js";

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
