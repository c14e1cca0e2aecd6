import { describe, expect, it } from "vitest";
import { post, useSim } from "../testing/http.ts";

const sim = useSim();
const AUTH = { authorization: "Bearer sk-test" };

describe("POST /v1/audio/speech", () => {
  it("returns a valid WAV for wav", async () => {
    const response = await post(
      `${sim().url}/v1/audio/speech`,
      {
        model: "gpt-4o-mini-tts",
        input: "Hello from the simulator",
        voice: "alloy",
        response_format: "wav",
      },
      AUTH,
    );
    expect(response.headers.get("content-type")).toBe("audio/wav");
    const wav = Buffer.from(await response.arrayBuffer());
    expect(wav.toString("latin1", 0, 4)).toBe("RIFF");
    expect(wav.readUInt32LE(4)).toBe(wav.length - 8);
    expect(wav.toString("latin1", 8, 12)).toBe("WAVE");
    expect(wav.readUInt32LE(24)).toBe(24_000); // sample rate in the fmt chunk
  });

  it("returns plausible bytes with the right content type for the other formats", async () => {
    const magic: Record<string, [string, string]> = {
      mp3: ["audio/mpeg", "ID3"],
      opus: ["audio/opus", "OggS"],
      flac: ["audio/flac", "fLaC"],
      aac: ["audio/aac", "\xff\xf1"],
    };
    for (const [format, [type, prefix]] of Object.entries(magic)) {
      const response = await post(
        `${sim().url}/v1/audio/speech`,
        { model: "tts-1", input: "hi", voice: "alloy", response_format: format },
        AUTH,
      );
      expect(response.headers.get("content-type")).toBe(type);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.toString("latin1", 0, prefix.length)).toBe(prefix);
    }
    const mp3 = await post(
      `${sim().url}/v1/audio/speech`,
      { model: "tts-1", input: "hi", voice: "alloy" },
      AUTH,
    );
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
  });

  it("refuses an unknown format", async () => {
    const response = await post(
      `${sim().url}/v1/audio/speech`,
      { model: "tts-1", input: "hi", voice: "alloy", response_format: "ogg" },
      AUTH,
    );
    expect(response.status).toBe(400);
  });
});

describe("POST /v1/audio/transcriptions", () => {
  const transcribe = (file: Blob, name: string, fields: Record<string, string>) => {
    const form = new FormData();
    form.set("file", file, name);
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    return fetch(`${sim().url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: AUTH,
      body: form,
    });
  };
  const mp3 = new Blob([new Uint8Array(32_000)], { type: "audio/mpeg" }); // 2 s at the assumed 16 kB/s

  it("answers json with a duration usage", async () => {
    const response = await transcribe(mp3, "meeting.mp3", { model: "whisper-1" });
    expect(await response.json()).toEqual({
      text: "transcript of meeting.mp3",
      usage: { type: "duration", seconds: 2 },
    });
  });

  it("answers verbose_json with segments and words", async () => {
    const body = await (
      await transcribe(mp3, "a.mp3", {
        model: "whisper-1",
        response_format: "verbose_json",
        "timestamp_granularities[]": "word",
      })
    ).json();
    expect(body).toMatchObject({
      task: "transcribe",
      language: "english",
      duration: 2,
      text: "transcript of a.mp3",
    });
    expect(body.segments[0]).toMatchObject({
      id: 0,
      start: 0,
      end: 2,
      text: "transcript of a.mp3",
    });
    expect(body.words.map((w: { word: string }) => w.word)).toEqual(["transcript", "of", "a.mp3"]);
  });

  it("answers text, srt and vtt", async () => {
    const text = await transcribe(mp3, "a.mp3", { model: "whisper-1", response_format: "text" });
    expect(text.headers.get("content-type")).toContain("text/plain");
    expect(await text.text()).toBe("transcript of a.mp3\n");
    const srt = await (
      await transcribe(mp3, "a.mp3", { model: "whisper-1", response_format: "srt" })
    ).text();
    expect(srt).toBe("1\n00:00:00,000 --> 00:00:02,000\ntranscript of a.mp3\n\n");
    const vtt = await (
      await transcribe(mp3, "a.mp3", { model: "whisper-1", response_format: "vtt" })
    ).text();
    expect(vtt).toBe("WEBVTT\n\n00:00:00.000 --> 00:00:02.000\ntranscript of a.mp3\n\n");
  });

  it("transcribes its own speech WAV back to the text, with token usage for gpt-4o models", async () => {
    const speech = await post(
      `${sim().url}/v1/audio/speech`,
      { model: "tts-1", input: "round trip works", voice: "alloy", response_format: "wav" },
      AUTH,
    );
    const wav = new Blob([await speech.arrayBuffer()], { type: "audio/wav" });
    const body = await (await transcribe(wav, "speech.wav", { model: "gpt-4o-transcribe" })).json();
    // "round trip works" = 16 chars * 60 ms = 0.96 s -> 10 audio tokens
    expect(body).toEqual({
      text: "round trip works",
      usage: {
        type: "tokens",
        input_tokens: 10,
        input_token_details: { text_tokens: 0, audio_tokens: 10 },
        output_tokens: 4,
        total_tokens: 14,
      },
    });
  });

  it("needs a file and a model", async () => {
    const form = new FormData();
    form.set("model", "whisper-1");
    const response = await fetch(`${sim().url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: AUTH,
      body: form,
    });
    expect(response.status).toBe(400);
    expect((await transcribe(mp3, "a.mp3", {})).status).toBe(400);
  });
});

describe("GET /v1/models", () => {
  it("lists models in OpenAI's shape, or Anthropic's with anthropic-version", async () => {
    const openai = await (await fetch(`${sim().url}/v1/models`, { headers: AUTH })).json();
    expect(openai.object).toBe("list");
    expect(openai.data[0]).toEqual({
      id: "gpt-4.1-mini",
      object: "model",
      created: 1_700_000_000,
      owned_by: "provider-sim",
    });
    const anthropic = await (
      await fetch(`${sim().url}/v1/models`, {
        headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
      })
    ).json();
    expect(anthropic).toMatchObject({ has_more: false, first_id: "claude-sonnet-4-5" });
    expect(anthropic.data[0].type).toBe("model");
  });
});
