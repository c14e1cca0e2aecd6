import { GatewayError } from "@interlingua/errors";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  estimatePromptTokens,
  formatCueMillis,
  formatSrtTimestamp,
  formatVttTimestamp,
  parseCueTimestamp,
  parseTranscriptionFields,
  parseVerboseTranscription,
  renderTranscription,
  renderTranscriptionFields,
  TRANSCRIPTION_FORMATS,
  toCueMillis,
  transcriptionCues,
  type VerboseTranscription,
} from "./openai-transcription.js";

const segment = (id: number, start: number, end: number, text: string) => ({
  id,
  seek: 0,
  start,
  end,
  text,
  tokens: [50364, 1000 + id],
  temperature: 0,
  avg_logprob: -0.25,
  compression_ratio: 1.2,
  no_speech_prob: 0.01,
});

const verbose: VerboseTranscription = {
  task: "transcribe",
  language: "english",
  duration: 3725.5,
  text: "Hello there. General Kenobi <3 & more",
  segments: [
    segment(0, 0, 1.2345, " Hello there."),
    segment(1, 1.2345, 3725.4996, " General Kenobi <3 & more"),
  ],
};

describe("timestamps", () => {
  it("formats SRT with a comma and VTT with a dot", () => {
    expect(formatSrtTimestamp(3725.5)).toBe("01:02:05,500");
    expect(formatVttTimestamp(3725.5)).toBe("01:02:05.500");
    expect(formatSrtTimestamp(0)).toBe("00:00:00,000");
    expect(formatVttTimestamp(59.9996)).toBe("00:01:00.000");
  });

  it("does not wrap hours", () => {
    expect(formatSrtTimestamp(100 * 3600 + 1.001)).toBe("100:00:01,001");
    expect(formatVttTimestamp(12_345 * 3600)).toBe("12345:00:00.000");
  });

  it("reads negative and NaN as 0", () => {
    expect(formatSrtTimestamp(-5)).toBe("00:00:00,000");
    expect(formatVttTimestamp(Number.NaN)).toBe("00:00:00.000");
  });

  const seconds = fc.double({ min: 0, max: 1e7, noNaN: true });

  it("has the fixed shape and reads back to the rounded millisecond (property)", () => {
    fc.assert(
      fc.property(seconds, (s) => {
        const srt = formatSrtTimestamp(s);
        const vtt = formatVttTimestamp(s);
        expect(srt).toMatch(/^\d{2,}:[0-5]\d:[0-5]\d,\d{3}$/);
        expect(vtt).toMatch(/^\d{2,}:[0-5]\d:[0-5]\d\.\d{3}$/);
        expect(srt.replace(",", ".")).toBe(vtt);
        expect(parseCueTimestamp(srt)).toBe(Math.round(s * 1000));
        // Rounded to nearest: never more than half a millisecond away.
        expect(Math.abs(parseCueTimestamp(vtt)! - s * 1000)).toBeLessThanOrEqual(0.5 + 1e-6 * s);
      }),
    );
  });

  it("never goes backwards: a later time never gets an earlier stamp (property)", () => {
    fc.assert(
      fc.property(seconds, seconds, (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(toCueMillis(lo)).toBeLessThanOrEqual(toCueMillis(hi));
        expect(parseCueTimestamp(formatSrtTimestamp(lo))!).toBeLessThanOrEqual(
          parseCueTimestamp(formatSrtTimestamp(hi))!,
        );
      }),
    );
  });

  it("is monotonic over whole milliseconds, large hours included (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 50 }),
        fc.integer({ min: 0, max: 10_000 }),
        (ms, step) => {
          const a = parseCueTimestamp(formatCueMillis(ms, ","));
          const b = parseCueTimestamp(formatCueMillis(ms + step, ","));
          expect(a).toBe(ms);
          expect(b).toBe(ms + step);
        },
      ),
    );
  });
});

describe("renderTranscription", () => {
  it("renders json as {text} only", () => {
    const out = renderTranscription(verbose, "json");
    expect(out.contentType).toBe("application/json");
    expect(JSON.parse(out.body)).toEqual({ text: verbose.text });
  });

  it("renders text with a trailing newline as plain text", () => {
    expect(renderTranscription(verbose, "text")).toEqual({
      body: `${verbose.text}\n`,
      contentType: "text/plain; charset=utf-8",
    });
  });

  it("renders SRT cues from the segments", () => {
    const out = renderTranscription(verbose, "srt");
    expect(out.contentType).toBe("text/plain; charset=utf-8");
    expect(out.body).toBe(
      "1\n00:00:00,000 --> 00:00:01,235\nHello there.\n\n" +
        "2\n00:00:01,235 --> 01:02:05,500\nGeneral Kenobi <3 & more\n\n",
    );
  });

  it("renders WebVTT with its header and escaped cue text", () => {
    const out = renderTranscription(verbose, "vtt");
    expect(out.contentType).toBe("text/vtt; charset=utf-8");
    expect(out.body).toBe(
      "WEBVTT\n\n00:00:00.000 --> 00:00:01.235\nHello there.\n\n" +
        "00:00:01.235 --> 01:02:05.500\nGeneral Kenobi &lt;3 &amp; more\n\n",
    );
  });

  it("renders verbose_json with the API reference's fields only", () => {
    const out = renderTranscription(
      { ...verbose, words: [{ word: "x" }], usage: { seconds: 3 } } as VerboseTranscription,
      "verbose_json",
    );
    expect(Object.keys(JSON.parse(out.body))).toEqual([
      "task",
      "language",
      "duration",
      "text",
      "segments",
    ]);
    expect(JSON.parse(out.body).segments[1]).toEqual(verbose.segments[1]);
  });

  it("makes one cue of the whole text when there are no segments, and none when there is no text", () => {
    const bare = { ...verbose, duration: 2, segments: [] };
    expect(renderTranscription(bare, "srt").body).toBe(
      `1\n00:00:00,000 --> 00:00:02,000\n${verbose.text}\n\n`,
    );
    expect(renderTranscription({ ...bare, text: "  " }, "vtt").body).toBe("WEBVTT\n\n");
    expect(renderTranscription({ ...bare, text: "" }, "srt").body).toBe("");
  });

  it("keeps cues well-formed from odd segments: blank lines, backwards and inverted times", () => {
    const cues = transcriptionCues({
      ...verbose,
      segments: [
        segment(0, 5, 6, "a\n\n  b  \r\n"),
        segment(1, 4, 3, "c"),
        segment(2, 7, 8, "   "),
        segment(3, -1, Number.NaN, "d"),
      ],
    });
    expect(cues).toEqual([
      { startMs: 5000, endMs: 6000, text: "a\nb" },
      { startMs: 5000, endMs: 5000, text: "c" },
      { startMs: 5000, endMs: 5000, text: "d" },
    ]);
  });

  it("gives every cue an end at or after its start, starts in order, and no blank line inside (property)", () => {
    const seg = fc.record({
      start: fc.double({ min: -10, max: 1e6, noNaN: true }),
      end: fc.double({ min: -10, max: 1e6, noNaN: true }),
      text: fc.string({ maxLength: 20 }),
    });
    fc.assert(
      fc.property(fc.array(seg, { maxLength: 12 }), (segs) => {
        const v: VerboseTranscription = {
          ...verbose,
          segments: segs.map((s, i) => segment(i, s.start, s.end, s.text)),
        };
        const cues = transcriptionCues(v);
        let previous = 0;
        for (const cue of cues) {
          expect(cue.endMs).toBeGreaterThanOrEqual(cue.startMs);
          expect(cue.startMs).toBeGreaterThanOrEqual(previous);
          expect(cue.text).not.toMatch(/\n\s*\n|^\s*$/);
          previous = cue.startMs;
        }
        // Each SRT cue is exactly index, timing, text lines, and a blank line.
        const srt = renderTranscription(v, "srt").body;
        const blocks = srt === "" ? [] : srt.slice(0, -2).split("\n\n");
        expect(blocks).toHaveLength(cues.length);
        blocks.forEach((block, i) => {
          const [index, timing] = block.split("\n");
          expect(index).toBe(String(i + 1));
          expect(timing).toMatch(/^\d{2,}:\d{2}:\d{2},\d{3} --> \d{2,}:\d{2}:\d{2},\d{3}$/);
        });
        expect(renderTranscription(v, "vtt").body.startsWith("WEBVTT\n\n")).toBe(true);
      }),
    );
  });

  it("has a renderer for each of the five formats", () => {
    for (const format of TRANSCRIPTION_FORMATS) {
      expect(renderTranscription(verbose, format).body.length).toBeGreaterThan(0);
    }
  });
});

describe("parseVerboseTranscription", () => {
  it("reads an upstream body, dropping extras and defaulting missing segments", () => {
    const parsed = parseVerboseTranscription({ ...verbose, segments: undefined, usage: {} });
    expect(parsed).toEqual({ ok: true, value: { ...verbose, segments: [] } });
  });

  it("refuses a body that is not verbose_json", () => {
    expect(parseVerboseTranscription({ text: "hi" }).ok).toBe(false);
    const bad = parseVerboseTranscription({ ...verbose, segments: [{ id: "x" }] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toContain("segments");
  });
});

function refusal(fields: Record<string, string | string[]>): GatewayError {
  try {
    parseTranscriptionFields(fields);
  } catch (error) {
    if (error instanceof GatewayError) return error;
    throw error;
  }
  throw new Error("accepted");
}

describe("parseTranscriptionFields", () => {
  it("defaults to json and keeps only the fields given", () => {
    expect(parseTranscriptionFields({ model: "asrW-1", other: "x" })).toEqual({
      model: "asrW-1",
      responseFormat: "json",
    });
    expect(
      parseTranscriptionFields({
        model: "asrW-1",
        language: " EN ",
        prompt: "Names: Kenobi.",
        response_format: "vtt",
        temperature: "0.5",
      }),
    ).toEqual({
      model: "asrW-1",
      language: "en",
      prompt: "Names: Kenobi.",
      responseFormat: "vtt",
      temperature: 0.5,
    });
  });

  it.each([
    [{}, "model"],
    [{ model: "" }, "model"],
    [{ model: "m", language: "english" }, "language"],
    [{ model: "m", language: "en-US" }, "language"],
    [{ model: "m", language: "xx" }, "language"],
    [{ model: "m", response_format: "mp3" }, "response_format"],
    [{ model: "m", temperature: "hot" }, "temperature"],
    [{ model: "m", temperature: "" }, "temperature"],
    [{ model: "m", temperature: "1.5" }, "temperature"],
    [{ model: "m", temperature: "-0.1" }, "temperature"],
    [{ model: "m", temperature: "Infinity" }, "temperature"],
    [{ model: "m", prompt: "word ".repeat(225) }, "prompt"],
    [{ model: ["a", "b"] }, "model"],
  ])("refuses %j with a 400 naming %s", (fields, field) => {
    const error = refusal(fields);
    expect(error.status).toBe(400);
    expect(error.param).toBe(field);
  });

  it("takes a prompt of 224 estimated tokens", () => {
    expect(
      parseTranscriptionFields({ model: "m", prompt: "word ".repeat(224) }).prompt,
    ).toBeDefined();
  });
});

describe("estimatePromptTokens", () => {
  it("counts letter runs by four, other symbols one each", () => {
    expect(estimatePromptTokens("")).toBe(0);
    expect(estimatePromptTokens("hello world")).toBe(4);
    expect(estimatePromptTokens("a, b.")).toBe(4);
    expect(estimatePromptTokens("2024")).toBe(4);
    expect(estimatePromptTokens("你好世界")).toBe(4);
  });
});

describe("renderTranscriptionFields", () => {
  it("always asks the upstream for verbose_json, with the upstream model", () => {
    expect(
      renderTranscriptionFields(
        { model: "asrW-1", responseFormat: "srt", language: "de", temperature: 0 },
        "whisper-1",
      ),
    ).toEqual([
      ["model", "whisper-1"],
      ["response_format", "verbose_json"],
      ["language", "de"],
      ["temperature", "0"],
    ]);
  });
});
