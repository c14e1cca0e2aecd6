import { once } from "node:events";
import { readdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { renderTranscription, type VerboseTranscription } from "@interlingua/fmt-chat/media";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billedSeconds, maxAudioSeconds } from "../src/audio/audio-duration.ts";
import { MAX_AUDIO_BYTES } from "../src/audio/transcription-handler.ts";
import {
  auth,
  eventually,
  eventuallyAsync,
  type Stack,
  startStack,
  UPSTREAM_KEY,
} from "./stack.ts";
import { expectFaultsRefunded, usageRows, usageRowsOf, usedCreditsOf } from "./usage-rows.ts";
import type { Json } from "./wire.ts";

// POST /v1/audio/transcriptions through the gateway: against the simulator, and against an
// upstream that answers verbose_json only (so every other format is the gateway's rendering).

const ASR = "asrW-1";

/** A 16-bit mono PCM WAV of `seconds` of silence; `comment` (LIST/INFO ICMT) is what the simulator "hears". */
function wavFile(seconds: number, comment?: string, rate = 8000): Buffer {
  const data = Buffer.alloc(Math.round(seconds * rate) * 2);
  const chunk = (id: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.write(id, 0, "latin1");
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length % 2)]);
  };
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0);
  fmt.writeUInt16LE(1, 2);
  fmt.writeUInt32LE(rate, 4);
  fmt.writeUInt32LE(rate * 2, 8);
  fmt.writeUInt16LE(2, 12);
  fmt.writeUInt16LE(16, 14);
  const parts = [Buffer.from("WAVE", "latin1"), chunk("fmt ", fmt)];
  if (comment !== undefined) {
    parts.push(
      chunk(
        "LIST",
        Buffer.concat([Buffer.from("INFO", "latin1"), chunk("ICMT", Buffer.from(`${comment}\0`))]),
      ),
    );
  }
  parts.push(chunk("data", data));
  return chunk("RIFF", Buffer.concat(parts));
}

const SPOKEN =
  "Welcome to the quarterly review. Revenue grew in every region, and the new office opens in May. Questions go at the end.";
const WAV = wavFile(12.5, SPOKEN);

type Fields = Record<string, string>;

function form(
  file: Buffer | undefined,
  fields: Fields,
  name = "talk.wav",
  type = "audio/wav",
): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  if (file !== undefined) body.set("file", new Blob([new Uint8Array(file)], { type }), name);
  return body;
}

let stack: Stack;

async function transcribe(
  body: FormData | string,
  headers: Record<string, string> = auth(),
  base = stack.gateway.url,
): Promise<{ status: number; type: string; text: string; json: Json; requestId: string }> {
  const response = await fetch(`${base}/v1/audio/transcriptions`, {
    method: "POST",
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status: response.status,
    type: response.headers.get("content-type") ?? "",
    text,
    json,
    requestId: response.headers.get("x-request-id") ?? "",
  };
}

const logsFor = (requestId: string, of = stack) => usageRowsOf(of, requestId);
const usedCredits = () => usedCreditsOf(stack);

/** $0.006 per minute at 500,000 credits per USD: 3000 credits a minute, 50 a second. */
const perSeconds = (seconds: number) => Math.ceil(seconds * 50);

beforeAll(async () => {
  stack = await startStack({
    extraChannels: (url) => [
      {
        name: "oa-audio",
        protocol: "openai",
        base_url: url,
        api_key: UPSTREAM_KEY,
        models: { "txtA-4o-mini-tts": "gpt-4o-mini-tts", [ASR]: "whisper-1" },
      },
    ],
  });
});
afterAll(async () => {
  await stack.close();
});

describe("POST /v1/audio/transcriptions formats (simulator)", () => {
  let verbose: VerboseTranscription;

  it("answers verbose_json with the API reference's fields, segments included", async () => {
    const reply = await transcribe(form(WAV, { model: ASR, response_format: "verbose_json" }));
    expect(reply.status).toBe(200);
    expect(reply.type).toBe("application/json");
    expect(Object.keys(reply.json)).toEqual(["task", "language", "duration", "text", "segments"]);
    expect(reply.json).toMatchObject({
      task: "transcribe",
      language: "english",
      duration: 12.5,
      text: SPOKEN,
    });
    expect(reply.json.segments.length).toBeGreaterThan(1);
    for (const segment of reply.json.segments) {
      expect(Object.keys(segment).sort()).toEqual([
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
      ]);
    }
    verbose = reply.json;
  });

  it("answers json with the text only", async () => {
    const reply = await transcribe(form(WAV, { model: ASR }));
    expect(reply.status).toBe(200);
    expect(reply.type).toBe("application/json");
    expect(reply.json).toEqual({ text: SPOKEN });
  });

  it("answers text, srt and vtt as plain text bodies rendered from the verbose result", async () => {
    const text = await transcribe(form(WAV, { model: ASR, response_format: "text" }));
    expect(text.type).toBe("text/plain; charset=utf-8");
    expect(text.text).toBe(`${SPOKEN}\n`);

    const srt = await transcribe(form(WAV, { model: ASR, response_format: "srt" }));
    expect(srt.type).toBe("text/plain; charset=utf-8");
    expect(srt.text).toBe(renderTranscription(verbose, "srt").body);
    expect(srt.text.startsWith("1\n00:00:00,000 --> 00:00:0")).toBe(true);
    expect(srt.text).toMatch(/ --> 00:00:12,500\nQuestions go at the end\.\n\n$/);

    const vtt = await transcribe(form(WAV, { model: ASR, response_format: "vtt" }));
    expect(vtt.type).toBe("text/vtt; charset=utf-8");
    expect(vtt.text).toBe(renderTranscription(verbose, "vtt").body);
    expect(vtt.text.startsWith("WEBVTT\n\n00:00:00.000 --> ")).toBe(true);
  });

  it("takes language, prompt and temperature, and an mp3 (sniffed, whatever its name)", async () => {
    const speech = await fetch(`${stack.sim.url}/v1/audio/speech`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${UPSTREAM_KEY}` },
      body: JSON.stringify({
        model: "tts-1",
        input: "an mp3 of about five seconds long..",
        voice: "alloy",
        response_format: "mp3",
      }),
    });
    const mp3 = Buffer.from(await speech.arrayBuffer());
    const reply = await transcribe(
      form(
        mp3,
        {
          model: ASR,
          language: "de",
          prompt: "Quartal, Umsatz.",
          temperature: "0.2",
          response_format: "verbose_json",
        },
        "recording.bin",
        "application/octet-stream",
      ),
    );
    expect(reply.status).toBe(200);
    expect(reply.json.language).toBe("german");
    // The simulator names a file it cannot read by its file name: the gateway sent `audio.mp3`.
    expect(reply.json.text).toBe("transcript of audio.mp3");
  });
});

describe("POST /v1/audio/transcriptions bad input", () => {
  const PNG = Buffer.from(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a6f2ad9a0000000049454e44ae426082",
    "hex",
  );
  const cases: [string, () => FormData | string, number, string][] = [
    ["no file", () => form(undefined, { model: ASR }), 400, "file"],
    ["an empty file", () => form(Buffer.alloc(0), { model: ASR }), 400, "file"],
    ["a PNG named .mp3", () => form(PNG, { model: ASR }, "song.mp3", "audio/mpeg"), 400, "file"],
    [
      "text named .wav",
      () => form(Buffer.from("RIFF? no, plain text ".repeat(20)), { model: ASR }),
      400,
      "file",
    ],
    [
      "a FLAC file (not among the API reference's types)",
      () => form(Buffer.from("664c614300000022", "hex"), { model: ASR }, "a.wav"),
      400,
      "file",
    ],
    ["no model", () => form(WAV, {}), 400, "model"],
    ["an unknown model", () => form(WAV, { model: "whisper-9" }), 404, "model"],
    ["a speech model", () => form(WAV, { model: "txtA-4o-mini-tts" }), 400, "model"],
    [
      "a language that is not ISO-639-1",
      () => form(WAV, { model: ASR, language: "english" }),
      400,
      "language",
    ],
    [
      "a region-tagged language",
      () => form(WAV, { model: ASR, language: "en-US" }),
      400,
      "language",
    ],
    [
      "a prompt over 224 tokens",
      () => form(WAV, { model: ASR, prompt: "word ".repeat(300) }),
      400,
      "prompt",
    ],
    [
      "temperature above 1",
      () => form(WAV, { model: ASR, temperature: "1.5" }),
      400,
      "temperature",
    ],
    [
      "temperature that is not a number",
      () => form(WAV, { model: ASR, temperature: "warm" }),
      400,
      "temperature",
    ],
    [
      "an unknown response_format",
      () => form(WAV, { model: ASR, response_format: "mp3" }),
      400,
      "response_format",
    ],
    [
      "a file in another field",
      () => {
        const body = form(undefined, { model: ASR });
        body.set("audio", new Blob([new Uint8Array(WAV)]), "a.wav");
        return body;
      },
      400,
      "audio",
    ],
  ];
  for (const [what, body, status, param] of cases) {
    it(`answers ${what} with ${status} in the standard body, charging nothing`, async () => {
      const reply = await transcribe(body());
      expect(reply.status).toBe(status);
      expect(reply.type).toContain("application/json");
      expect(reply.json).toEqual({
        error: {
          code: status,
          message: expect.any(String),
          type: status === 404 ? "not_found_error" : "invalid_request_error",
          param,
        },
      });
      expect(await logsFor(reply.requestId)).toEqual([]);
    });
  }

  it("names a form field it does not forward; strict refuses it, charging nothing", async () => {
    const fields = { model: ASR, "timestamp_granularities[]": "word" };
    const response = await fetch(`${stack.gateway.url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: auth(),
      body: form(WAV, fields),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-interlingua-warnings")).toBe(
      "timestamp_granularities[]=dropped",
    );
    expect(await response.json()).toEqual({ text: SPOKEN });
    const plain = await fetch(`${stack.gateway.url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: auth(),
      body: form(WAV, { model: ASR, language: "en" }),
    });
    expect(plain.headers.get("x-interlingua-warnings")).toBeNull();
    await plain.text();

    const before = await usedCredits();
    const strict = await transcribe(form(WAV, fields), {
      ...auth(),
      "x-interlingua-strict": "true",
    });
    expect(strict.status).toBe(400);
    expect(strict.json.error).toMatchObject({
      code: 400,
      type: "invalid_request_error",
      param: "timestamp_granularities[]",
    });
    expect(await logsFor(strict.requestId)).toEqual([]);
    expect(await usedCredits()).toBe(before);
  });

  it("answers a body that is not multipart with 400, and no key with 401", async () => {
    const json = await transcribe(JSON.stringify({ model: ASR }), {
      ...auth(),
      "content-type": "application/json",
    });
    expect(json.status).toBe(400);
    expect(json.json.error.type).toBe("invalid_request_error");
    const anonymous = await transcribe(form(WAV, { model: ASR }), {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toMatchObject({ code: 401, type: "authentication_error" });
  });

  it("answers a file of 25 MB + 1 byte with a 413 JSON body (not a cut connection), and takes 25 MB", async () => {
    const over = Buffer.concat([wavFile(0, "too big"), Buffer.alloc(MAX_AUDIO_BYTES + 1)]).subarray(
      0,
      MAX_AUDIO_BYTES + 1,
    );
    expect(over.length).toBe(25 * 1024 * 1024 + 1);
    const reply = await transcribe(form(over, { model: ASR }));
    expect(reply.status).toBe(413);
    expect(reply.json).toEqual({
      error: {
        code: 413,
        message: expect.stringContaining("25 MB"),
        type: "invalid_request_error",
        param: "file",
      },
    });
    expect(await logsFor(reply.requestId)).toEqual([]);

    // 25 MB exactly: 26,214,356 bytes of samples at 8 kHz (16,000 bytes a second) after the header.
    const exact = wavFile((MAX_AUDIO_BYTES - 44) / 16_000, undefined);
    expect(exact.length).toBe(MAX_AUDIO_BYTES);
    const ok = await transcribe(form(exact, { model: ASR }));
    expect(ok.status).toBe(200);
    const rows = await logsFor(ok.requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.credits).toBe(perSeconds((MAX_AUDIO_BYTES - 44) / 16_000));
  });

  it("leaves no spooled file behind", async () => {
    const dir = join(tmpdir(), "interlingua-audio", String(process.pid));
    expect(await readdir(dir)).toEqual([]);
  });
});

describe("POST /v1/audio/transcriptions billing", () => {
  it("charges per minute of the audio's own duration, once, in the usage log", async () => {
    const before = await usedCredits();
    const reply = await transcribe(
      form(wavFile(90, "ninety seconds"), { model: ASR, response_format: "text" }),
    );
    expect(reply.status).toBe(200);
    const rows = await logsFor(reply.requestId);
    expect(rows).toHaveLength(1);
    // 90 s = 1.5 minutes at $0.006: 4500 credits.
    expect(rows[0]).toMatchObject({
      model: ASR,
      endpoint: "transcriptions",
      channel: "oa-audio",
      status: 200,
      credits: 4500,
    });
    expect((await usedCredits()) - before).toBe(4500);
  });

  it("refunds when the upstream fails, and maps its error to the standard body", async () => {
    const faults = [
      ["[[fault:status=400]]", 400],
      ["[[fault:status=503]]", 503],
    ] as const;
    await expectFaultsRefunded(stack, faults, (fault) =>
      transcribe(form(WAV, { model: ASR, prompt: fault })),
    );
  });

  it("bills the file's duration, or the upstream's within what the file can hold", () => {
    expect(billedSeconds(90, 3600, 1_440_044)).toBe(90);
    expect(billedSeconds(undefined, 12.3456, 1_000_000)).toBe(12.346);
    // 10,000 bytes hold at most 20 s at the lowest byte rate: an upstream saying an hour is capped.
    expect(maxAudioSeconds(10_000)).toBe(20);
    expect(billedSeconds(undefined, 3600, 10_000)).toBe(20);
    expect(billedSeconds(undefined, Number.NaN, 10_000)).toBe(0);
  });
});

describe("POST /v1/audio/transcriptions against an upstream that answers verbose_json only", () => {
  let upstream: Server;
  let only: Stack;
  const seen: {
    auth?: string | undefined;
    fields: Record<string, string>;
    file?: { name: string; size: number; type: string };
  }[] = [];
  const VERBOSE = {
    task: "transcribe",
    language: "english",
    duration: 3600, // lies: the file is 30 s long
    text: "First line. Second <line> & more",
    segments: [
      {
        id: 0,
        seek: 0,
        start: 0,
        end: 1.0004,
        text: " First line.",
        tokens: [1, 2],
        temperature: 0,
        avg_logprob: -0.2,
        compression_ratio: 1.1,
        no_speech_prob: 0.01,
      },
      {
        id: 1,
        seek: 100,
        start: 1.0004,
        end: 3725.5,
        text: " Second <line> & more",
        tokens: [3],
        temperature: 0,
        avg_logprob: -0.3,
        compression_ratio: 1.2,
        no_speech_prob: 0.02,
      },
    ],
    words: [{ word: "First", start: 0, end: 0.5 }],
    usage: { type: "duration", seconds: 3600 },
  };
  /** A prompt this upstream never answers. */
  const HANG = "hang up on me";
  const hung: { closedAt?: number }[] = [];

  beforeAll(async () => {
    upstream = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const parsed = await new Response(Buffer.concat(chunks), {
        headers: { "content-type": req.headers["content-type"] ?? "" },
      }).formData();
      const fields: Record<string, string> = {};
      let file: (typeof seen)[number]["file"];
      for (const [name, value] of parsed) {
        if (typeof value === "string") fields[name] = value;
        else file = { name: value.name, size: value.size, type: value.type };
      }
      seen.push({ auth: req.headers.authorization, fields, ...(file ? { file } : {}) });
      if (fields["prompt"] === HANG) {
        // Never answers; notes when the gateway hangs up on it.
        const call: (typeof hung)[number] = {};
        hung.push(call);
        res.on("close", () => {
          call.closedAt = Date.now();
        });
        return;
      }
      if (fields["response_format"] !== "verbose_json") {
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: { message: "only verbose_json here", type: "invalid_request_error" },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(VERBOSE));
    });
    upstream.listen(0, "127.0.0.1");
    await once(upstream, "listening");
    only = await startStack({
      channels: [
        {
          name: "verbose-only",
          protocol: "openai",
          base_url: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
          api_key: "asr-key",
          models: { [ASR]: "whisper-large" },
        },
      ],
    });
  });
  afterAll(async () => {
    await only.close();
    upstream.close();
  });

  const FILE = wavFile(30, undefined, 16_000);

  it("renders every response_format itself from the upstream's verbose_json", async () => {
    const expected: Record<string, [string, string]> = {
      json: ["application/json", JSON.stringify({ text: VERBOSE.text })],
      text: ["text/plain; charset=utf-8", `${VERBOSE.text}\n`],
      srt: [
        "text/plain; charset=utf-8",
        "1\n00:00:00,000 --> 00:00:01,000\nFirst line.\n\n2\n00:00:01,000 --> 01:02:05,500\nSecond <line> & more\n\n",
      ],
      vtt: [
        "text/vtt; charset=utf-8",
        "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nFirst line.\n\n00:00:01.000 --> 01:02:05.500\nSecond &lt;line&gt; &amp; more\n\n",
      ],
    };
    for (const [format, [type, body]] of Object.entries(expected)) {
      const reply = await transcribe(
        form(FILE, { model: ASR, response_format: format }),
        auth(),
        only.gateway.url,
      );
      expect(reply.status, format).toBe(200);
      expect(reply.type).toBe(type);
      expect(reply.text).toBe(body);
    }
    const verbose = await transcribe(
      form(FILE, { model: ASR, response_format: "verbose_json" }),
      auth(),
      only.gateway.url,
    );
    const { words: _words, usage: _usage, ...spec } = VERBOSE;
    expect(verbose.json).toEqual(spec);
  });

  it("forwards the fields, the channel key and the file under its sniffed type", async () => {
    await transcribe(
      form(
        FILE,
        {
          model: ASR,
          language: "fr",
          prompt: "Bonjour.",
          temperature: "0.4",
          response_format: "srt",
        },
        "clip.mp3",
        "audio/mpeg",
      ),
      auth(),
      only.gateway.url,
    );
    expect(seen.at(-1)).toEqual({
      auth: "Bearer asr-key",
      fields: {
        model: "whisper-large",
        response_format: "verbose_json",
        language: "fr",
        prompt: "Bonjour.",
        temperature: "0.4",
      },
      file: { name: "audio.wav", size: FILE.length, type: "audio/wav" },
    });
  });

  it("a client that leaves mid-transcription cancels the upstream call within 1 s and is refunded", async () => {
    const before = await usedCreditsOf(only);
    const controller = new AbortController();
    const sent = fetch(`${only.gateway.url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: auth(),
      body: form(FILE, { model: ASR, prompt: HANG }),
      signal: controller.signal,
    });
    sent.catch(() => {});
    await eventually(() => hung.length === 1);
    const left = Date.now();
    controller.abort();
    await expect(sent).rejects.toThrow();
    await eventually(() => hung[0]!.closedAt !== undefined);
    // The upstream hangs for ever: a close at all is the cancel, and the bound only says it was
    // prompt with room for a loaded machine.
    expect(hung[0]!.closedAt! - left).toBeLessThan(5_000);
    // Nothing was delivered: the hold is refunded, and the call's one row charges nothing.
    const rows = await eventuallyAsync(
      async () => (await usageRows(only)).filter((row) => row.status !== 200),
      (found) => found.length > 0,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      model: ASR,
      endpoint: "transcriptions",
      status: 499,
      credits: 0,
    });
    expect(await usedCreditsOf(only)).toBe(before);
  });

  it("bills the file's 30 seconds, not the hour the upstream reports", async () => {
    const reply = await transcribe(form(FILE, { model: ASR }), auth(), only.gateway.url);
    expect(reply.status).toBe(200);
    const rows = await logsFor(reply.requestId, only);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.credits).toBe(perSeconds(30));
  });
});
