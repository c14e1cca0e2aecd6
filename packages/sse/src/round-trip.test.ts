import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cuts, expectedOf, sseEvent, sseFrames } from "../test/arbitraries.js";
import { concatBytes, decodeChunks, utf8 } from "../test/streams.js";
import {
  decodeSseText,
  encodeSse,
  encodeSseEvent,
  type SseFrame,
  type SseLineEnding,
} from "./index.js";
import { sseEventSchema } from "./schemas.js";
import { readAll, readableOf, splitBytes } from "./testing.js";

const encodeText = (frames: readonly SseFrame[], lineEnding: SseLineEnding = "\n") =>
  frames.map((f) => encodeSseEvent(f, { lineEnding })).join("");

const encodeBytes = async (frames: readonly SseFrame[], lineEnding: SseLineEnding) =>
  concatBytes(await readAll(readableOf(frames).pipeThrough(encodeSse({ lineEnding }))));

// The encoder writes `\n` or `\r\n`; a stream of bare CRs is the LF text with each LF replaced,
// which is exact because generated data holds no CR and every LF the encoder writes ends a line.
const lineEnds = {
  LF: (frames: readonly SseFrame[]) => encodeBytes(frames, "\n"),
  CRLF: (frames: readonly SseFrame[]) => encodeBytes(frames, "\r\n"),
  CR: async (frames: readonly SseFrame[]) => utf8.encode(encodeText(frames).replace(/\n/g, "\r")),
};

describe("encode then decode is the identity", () => {
  it("every generated event passes the schema", () => {
    fc.assert(fc.property(sseEvent, (event) => sseEventSchema.parse(event) !== undefined));
  });

  it("for any frames, through the sync helpers", () => {
    fc.assert(
      fc.property(sseFrames, fc.constantFrom<SseLineEnding>("\n", "\r\n"), (frames, eol) => {
        const comments: string[] = [];
        const events = decodeSseText(encodeText(frames, eol), {
          onComment: (c) => comments.push(c),
        });
        expect({ events, comments }).toEqual(expectedOf(frames));
      }),
      { numRuns: 300 },
    );
  });

  it("for any frames, through the streams", async () => {
    await fc.assert(
      fc.asyncProperty(sseFrames, async (frames) => {
        expect(await decodeChunks([await lineEnds.LF(frames)])).toEqual(expectedOf(frames).events);
      }),
    );
  });
});

describe("decoding does not depend on how the bytes are split", () => {
  it.each(Object.entries(lineEnds))("with %s line ends, cut at any byte", async (_name, encode) => {
    await fc.assert(
      fc.asyncProperty(sseFrames, cuts, async (frames, at) => {
        const bytes = await encode(frames);
        expect(await decodeChunks(splitBytes(bytes, at))).toEqual(expectedOf(frames).events);
      }),
      { numRuns: 200 },
    );
  });

  it("fed as text cut at any UTF-16 offset, even between surrogates", async () => {
    await fc.assert(
      fc.asyncProperty(sseFrames, cuts, async (frames, at) => {
        const text = encodeText(frames, "\r\n");
        const points = [...new Set(at)].filter((c) => c < text.length).sort((a, b) => a - b);
        const pieces = [...points, text.length].map((end, i) =>
          text.slice(points[i - 1] ?? 0, end),
        );
        expect(await decodeChunks(pieces)).toEqual(expectedOf(frames).events);
      }),
      { numRuns: 200 },
    );
  });

  it("one byte at a time", async () => {
    await fc.assert(
      fc.asyncProperty(sseFrames, async (frames) => {
        const bytes = await lineEnds.CRLF(frames);
        const single = Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));
        expect(await decodeChunks(single)).toEqual(expectedOf(frames).events);
      }),
      { numRuns: 50 },
    );
  });
});
