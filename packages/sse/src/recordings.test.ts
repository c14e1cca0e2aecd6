import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cuts } from "../test/arbitraries.js";
import { recordings } from "../test/recordings.js";
import { decodeChunks, utf8 } from "../test/streams.js";
import { decodeSseText, encodeSseEvent, isDone, type SseLineEnding } from "./index.js";
import { frameRecording, type RecordingProtocol, recordingEvents, splitBytes } from "./testing.js";

const all = recordings();
const lineEndingOf: Record<RecordingProtocol, SseLineEnding> = {
  anthropic: "\n",
  openai: "\n",
  gemini: "\r\n",
};

describe("recorded provider streams", () => {
  it("are all found", () => {
    expect(all.length).toBeGreaterThanOrEqual(19);
    expect(new Set(all.map((r) => r.protocol))).toEqual(new Set(["anthropic", "openai", "gemini"]));
  });

  describe.each(all.map((r) => [r.name, r] as const))("%s", (_name, { lines, protocol }) => {
    const wire = frameRecording(lines, protocol);
    const expected = recordingEvents(lines, protocol);

    it("decodes to exactly its lines", () => {
      const events = decodeSseText(wire);
      expect(events).toEqual(expected);
      expect(events.filter((e) => !isDone(e)).map((e) => e.data)).toEqual(lines);
      if (protocol === "anthropic") {
        expect(events.map((e) => e.event)).toEqual(
          lines.map((line) => (JSON.parse(line) as { type: string }).type),
        );
      }
    });

    it("decodes the same however its bytes are split", async () => {
      const bytes = utf8.encode(wire);
      const spread = fc.array(fc.nat({ max: bytes.length }), { maxLength: 40 });
      await fc.assert(
        fc.asyncProperty(fc.oneof(cuts, spread), async (at) => {
          expect(await decodeChunks(splitBytes(bytes, at))).toEqual(expected);
        }),
        { numRuns: 30 },
      );
    });

    it("is written back byte for byte by the encoder", () => {
      const lineEnding = lineEndingOf[protocol];
      expect(expected.map((e) => encodeSseEvent(e, { lineEnding })).join("")).toBe(wire);
    });
  });
});
