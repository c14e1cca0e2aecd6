import { describe, expect, it } from "vitest";
import { wav } from "../media/wav.ts";
import { useSim } from "../testing/http.ts";

const sim = useSim();
const AUTH = { authorization: "Bearer sk-test" };

const TEXT =
  "Good morning everyone. Today we look at the quarterly numbers, the hiring plan and the office move that starts in May. Questions at the end!";
// 10.5 s of silence at 24 kHz with the text in its comment: the simulator's transcript is the text.
const FILE = wav(Buffer.alloc(24_000 * 2 * 10.5), 24_000, TEXT);

function transcribe(fields: Record<string, string>) {
  const form = new FormData();
  form.set("file", new Blob([new Uint8Array(FILE)], { type: "audio/wav" }), "meeting.wav");
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  return fetch(`${sim().url}/v1/audio/transcriptions`, {
    method: "POST",
    headers: AUTH,
    body: form,
  });
}

type Segment = {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
};

describe("POST /v1/audio/transcriptions segments", () => {
  it("cuts the transcript at sentences and every 12 words, contiguous up to the duration", async () => {
    const body = await (
      await transcribe({ model: "whisper-1", response_format: "verbose_json" })
    ).json();
    expect(body).toMatchObject({
      task: "transcribe",
      language: "english",
      duration: 10.5,
      text: TEXT,
    });
    const segments: Segment[] = body.segments;
    expect(segments.map((s) => s.text)).toEqual([
      "Good morning everyone.",
      "Today we look at the quarterly numbers, the hiring plan and the",
      "office move that starts in May.",
      "Questions at the end!",
    ]);
    expect(segments.map((s) => s.id)).toEqual([0, 1, 2, 3]);
    expect(segments[0]!.start).toBe(0);
    expect(segments.at(-1)!.end).toBe(10.5);
    for (let i = 1; i < segments.length; i++) {
      expect(segments[i]!.start).toBe(segments[i - 1]!.end);
      expect(segments[i]!.seek).toBe(Math.round(segments[i]!.start * 100));
    }
    for (const s of segments) {
      expect(s.end).toBeGreaterThan(s.start);
      expect(s.tokens).toHaveLength(s.text.split(" ").length);
      expect(Object.keys(s).sort()).toEqual(
        [
          "avg_logprob",
          "compression_ratio",
          "end",
          "id",
          "no_speech_prob",
          "seek",
          "start",
          "temperature",
          "text",
          "tokens",
        ].sort(),
      );
    }
  });

  it("is deterministic, and names the language it was given", async () => {
    const a = await (
      await transcribe({ model: "whisper-1", response_format: "verbose_json", language: "de" })
    ).json();
    const b = await (
      await transcribe({ model: "whisper-1", response_format: "verbose_json", language: "de" })
    ).json();
    expect(a).toEqual(b);
    expect(a.language).toBe("german");
  });

  it("writes one SRT and VTT cue per segment", async () => {
    const srt = await (await transcribe({ model: "whisper-1", response_format: "srt" })).text();
    const blocks = srt.trimEnd().split("\n\n");
    expect(blocks).toHaveLength(4);
    expect(blocks[0]).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nGood morning everyone\.$/);
    expect(blocks[3]).toMatch(/^4\n00:00:\d{2},\d{3} --> 00:00:10,500\nQuestions at the end!$/);
    const vtt = await (await transcribe({ model: "whisper-1", response_format: "vtt" })).text();
    expect(vtt.startsWith("WEBVTT\n\n00:00:00.000 --> ")).toBe(true);
    expect(vtt.trimEnd().split("\n\n")).toHaveLength(5);
  });
});
