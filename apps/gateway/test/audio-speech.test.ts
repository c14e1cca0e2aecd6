import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { parseBuffer } from "music-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { creditsFor } from "../src/billing/charge.ts";
import { auth, KEY, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { expectFaultsRefunded, usageRowsOf, usedCreditsOf } from "./usage-rows.ts";

// POST /v1/audio/speech through the gateway, against the simulator's OpenAI speech endpoint.

const TTS = "txtA-4o-mini-tts";
/** The audio models on an OpenAI channel at the simulator, under OpenAI's own model ids. */
const audioChannel = (url: string) => [
  {
    name: "oa-audio",
    protocol: "openai" as const,
    base_url: url,
    api_key: UPSTREAM_KEY,
    models: { [TTS]: "gpt-4o-mini-tts", "asrW-1": "whisper-1" },
  },
];

let stack: Stack;
const url = (path: string) => `${stack.gateway.url}${path}`;
const services = () => stack.gateway.services;

beforeAll(async () => {
  stack = await startStack({ extraChannels: audioChannel });
});
afterAll(async () => {
  await stack.close();
});

const speak = (body: Record<string, unknown>, headers: Record<string, string> = auth()) =>
  fetch(url("/v1/audio/speech"), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });

const INPUT = "The gateway speaks five formats."; // 32 characters -> 1.92 s at the simulator's pace
const EXPECTED_SECONDS = 1.92;

const logsFor = (requestId: string) => usageRowsOf(stack, requestId);
const usedCredits = () => usedCreditsOf(stack);

const FORMATS = [
  {
    format: "wav",
    type: "audio/wav",
    magic: (b: Buffer) =>
      b.toString("latin1", 0, 4) === "RIFF" && b.toString("latin1", 8, 12) === "WAVE",
  },
  {
    format: "opus",
    type: "audio/ogg; codecs=opus",
    magic: (b: Buffer) =>
      b.toString("latin1", 0, 4) === "OggS" && b.toString("latin1", 28, 36) === "OpusHead",
  },
  {
    format: "aac",
    type: "audio/aac",
    magic: (b: Buffer) => b[0] === 0xff && (b[1]! & 0xf6) === 0xf0,
  },
  {
    format: "flac",
    type: "audio/flac",
    magic: (b: Buffer) => b.toString("latin1", 0, 4) === "fLaC" && (b[4]! & 0x7f) === 0,
  },
  {
    format: "pcm",
    type: "audio/pcm",
    magic: (b: Buffer) => b.length === EXPECTED_SECONDS * 24_000 * 2,
  },
  {
    // OpenAI's own default, which its SDKs ask for: an MPEG audio frame sync (or an ID3 tag).
    format: "mp3",
    type: "audio/mpeg",
    magic: (b: Buffer) =>
      b.toString("latin1", 0, 3) === "ID3" || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0),
  },
] as const;

describe("POST /v1/audio/speech formats", () => {
  for (const { format, type, magic } of FORMATS) {
    it(`streams ${format} with content type ${type}, a file a decoder reads`, async () => {
      const response = await speak({
        model: TTS,
        input: INPUT,
        voice: "nova",
        response_format: format,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(magic(bytes)).toBe(true);
      if (format === "pcm") return; // raw samples: no container to parse
      const metadata = await parseBuffer(
        bytes,
        { mimeType: type.split(";")[0]! },
        { duration: true },
      );
      expect(metadata.format.duration).toBeCloseTo(EXPECTED_SECONDS, 1);
      // OpenAI's mp3 is 44.1 kHz (the simulator's too); the other formats are 24 kHz.
      expect(metadata.format.sampleRate).toBe(format === "mp3" ? 44_100 : 24_000);
    });
  }

  it("gets files from the simulator that music-metadata parses, in every format it makes", async () => {
    const types: Record<string, string> = {
      mp3: "audio/mpeg",
      wav: "audio/wav",
      opus: "audio/ogg",
      aac: "audio/aac",
      flac: "audio/flac",
    };
    for (const [format, mimeType] of Object.entries(types)) {
      const response = await fetch(`${stack.sim.url}/v1/audio/speech`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${UPSTREAM_KEY}` },
        body: JSON.stringify({
          model: "tts-1",
          input: INPUT,
          voice: "alloy",
          response_format: format,
        }),
      });
      const bytes = Buffer.from(await response.arrayBuffer());
      const metadata = await parseBuffer(bytes, { mimeType }, { duration: true });
      expect(metadata.format.duration, format).toBeCloseTo(EXPECTED_SECONDS, 1);
    }
  });

  it("answers wav, the API reference's listed default, when no format is named", async () => {
    const response = await speak({ model: TTS, input: INPUT, voice: "alloy" });
    expect(response.headers.get("content-type")).toBe("audio/wav");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.toString("latin1", 0, 4)).toBe("RIFF");
  });

  it("takes every voice and both ends of the speed range", async () => {
    for (const voice of ["alloy", "echo", "fable", "onyx", "nova", "shimmer"]) {
      const response = await speak({ model: TTS, input: "hi", voice, response_format: "pcm" });
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    for (const speed of [0.25, 4]) {
      const response = await speak({
        model: TTS,
        input: INPUT,
        voice: "echo",
        speed,
        response_format: "pcm",
      });
      expect(response.status).toBe(200);
      // The simulator's audio is as long as the text at that speed: the speed was forwarded.
      expect((await response.arrayBuffer()).byteLength).toBe(Math.round(1920 / speed) * 24 * 2);
    }
  });
});

describe("POST /v1/audio/speech bad input", () => {
  const ok = { model: TTS, input: "hello", voice: "alloy" };
  const cases: [string, unknown, number, string | undefined][] = [
    ["an unknown voice", { ...ok, voice: "bob" }, 400, "voice"],
    ["a voice of the wrong type", { ...ok, voice: 1 }, 400, "voice"],
    ["an unknown format", { ...ok, response_format: "ogg" }, 400, "response_format"],
    ["speed below 0.25", { ...ok, speed: 0.2 }, 400, "speed"],
    ["speed above 4", { ...ok, speed: 4.5 }, 400, "speed"],
    ["speed as a string", { ...ok, speed: "1" }, 400, "speed"],
    ["input of 4097 characters", { ...ok, input: "a".repeat(4097) }, 413, "input"],
    ["empty input", { ...ok, input: "" }, 400, "input"],
    ["input of the wrong type", { ...ok, input: ["a"] }, 400, "input"],
    ["no input", { model: TTS, voice: "alloy" }, 400, "input"],
    ["no voice", { model: TTS, input: "x" }, 400, "voice"],
    ["no model", { input: "x", voice: "alloy" }, 400, "model"],
    ["an unknown model", { ...ok, model: "tts-nope" }, 404, "model"],
    ["a text model", { ...ok, model: "txtA-5" }, 400, "model"],
    ["a body that is an array", [ok], 400, undefined],
  ];
  for (const [what, body, status, param] of cases) {
    it(`answers ${what} with ${status} in the standard body`, async () => {
      const reply = await postJson(url("/v1/audio/speech"), body);
      expect(reply.status).toBe(status);
      expect(reply.headers.get("content-type")).toContain("application/json");
      expect(reply.json).toEqual({
        error: {
          code: status,
          message: expect.any(String),
          type: status === 404 ? "not_found_error" : "invalid_request_error",
          ...(param === undefined ? {} : { param }),
        },
      });
      if (param !== undefined) expect(reply.json.error.message).toContain(param);
    });
  }

  it("answers malformed JSON with 400, and a missing key with 401", async () => {
    const bad = await postJson(url("/v1/audio/speech"), "{not json");
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe("invalid_request_error");
    const anonymous = await postJson(
      url("/v1/audio/speech"),
      { model: TTS, input: "x", voice: "alloy" },
      {},
    );
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error).toMatchObject({ code: 401, type: "authentication_error" });
  });

  it("names a field it does not forward (instructions=dropped); strict refuses it, charging nothing", async () => {
    const body = { model: TTS, input: "x", voice: "alloy", instructions: "whisper", style: 1 };
    const response = await speak(body);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-interlingua-warnings")).toBe(
      "instructions=dropped,style=dropped",
    );
    await response.arrayBuffer();
    const plain = await speak({ model: TTS, input: "x", voice: "alloy", speed: 2 });
    expect(plain.headers.get("x-interlingua-warnings")).toBeNull();
    await plain.arrayBuffer();

    const before = await usedCredits();
    const strict = await postJson(url("/v1/audio/speech"), body, {
      ...auth(),
      "x-interlingua-strict": "true",
    });
    expect(strict.status).toBe(400);
    expect(strict.json.error).toMatchObject({
      code: 400,
      type: "invalid_request_error",
      param: "instructions",
    });
    expect(await logsFor(strict.headers.get("x-request-id")!)).toEqual([]);
    expect(await usedCredits()).toBe(before);
  });

  it("takes input of exactly 4096 characters", async () => {
    const response = await speak({
      model: TTS,
      input: "a".repeat(4096),
      voice: "alloy",
      response_format: "pcm",
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });
});

describe("POST /v1/audio/speech billing", () => {
  const perCharacter = (characters: number) =>
    creditsFor(services().prices.ratesOrFree(TTS), { characters });

  it("charges per character of input, once, in the usage log", async () => {
    const input = "Zwölf Boxkämpfer jagen Viktor quer über den großen Sylter Deich 🥊"; // 65 code points (the emoji is one)
    expect([...input].length).toBe(65);
    expect(input.length).toBe(66);
    const before = await usedCredits();
    const response = await speak({ model: TTS, input, voice: "onyx", response_format: "opus" });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const requestId = response.headers.get("x-request-id")!;
    const rows = await logsFor(requestId);
    expect(rows).toHaveLength(1);
    // $15 per 1M characters at 500,000 credits per USD: 7.5 credits per character.
    expect(perCharacter(65)).toBe(488);
    expect(rows[0]).toMatchObject({
      model: TTS,
      endpoint: "speech",
      channel: "oa-audio",
      status: 200,
      credits: 488,
    });
    expect((await usedCredits()) - before).toBe(488);
  });

  it("refunds when the upstream fails, and maps its error to the standard body", async () => {
    const faults = [
      ["[[fault:status=400]]", 400],
      ["[[fault:status=500]]", 502],
    ] as const;
    await expectFaultsRefunded(stack, faults, async (fault) => {
      const reply = await postJson(url("/v1/audio/speech"), {
        model: TTS,
        input: `please fail ${fault}`,
        voice: "alloy",
      });
      return { ...reply, requestId: reply.headers.get("x-request-id")! };
    });
  });

  it("writes no charge and no upstream call for a refused body", async () => {
    const reply = await postJson(url("/v1/audio/speech"), {
      model: TTS,
      input: "a".repeat(5000),
      voice: "alloy",
    });
    expect(reply.status).toBe(413);
    expect(await logsFor(reply.headers.get("x-request-id")!)).toEqual([]);
  });
});

const WAV_START = Buffer.concat([Buffer.from("RIFF\0\0\0\0WAVE", "latin1"), Buffer.alloc(988)]);

describe("POST /v1/audio/speech streaming", () => {
  let upstream: Server;
  let slow: Stack;
  const CHUNKS = 200;
  const events: {
    auth?: string | undefined;
    body?: unknown;
    closedEarly?: boolean;
    sent: number;
  }[] = [];

  beforeAll(async () => {
    // An upstream that sends its audio in small pieces over seconds and notes when its client
    // (the gateway) hangs up before the end.
    upstream = createServer((req, res) => {
      const seen: (typeof events)[number] = { sent: 0 };
      events.push(seen);
      seen.auth = req.headers.authorization;
      let text = "";
      req.on("data", (chunk) => {
        text += chunk;
      });
      req.on("end", () => {
        seen.body = JSON.parse(text);
        res.writeHead(200, { "content-type": "audio/wav" });
        const timer = setInterval(() => {
          // A WAV header first: the gateway relays only audio of the asked format (issue 26).
          res.write(seen.sent === 0 ? WAV_START : Buffer.alloc(1000, 0));
          seen.sent++;
          if (seen.sent === CHUNKS) {
            clearInterval(timer);
            res.end();
          }
        }, 20);
        res.on("close", () => {
          clearInterval(timer);
          seen.closedEarly = seen.sent < CHUNKS;
        });
      });
    });
    upstream.listen(0, "127.0.0.1");
    await once(upstream, "listening");
    const port = (upstream.address() as AddressInfo).port;
    slow = await startStack({
      channels: [
        {
          name: "slow",
          protocol: "openai",
          base_url: `http://127.0.0.1:${port}`,
          api_key: "slow-key",
          models: { [TTS]: "tts-upstream" },
          // One connection: a second call waits in line, briefly (audio takes slots as chat does).
          max_connections: 1,
          queue_timeout_ms: 300,
        },
      ],
    });
  });
  afterAll(async () => {
    await slow.close();
    upstream.close();
  });

  it("relays the audio as it arrives, and a client that leaves closes the upstream call", async () => {
    const controller = new AbortController();
    const response = await fetch(`${slow.gateway.url}/v1/audio/speech`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth(KEY) },
      body: JSON.stringify({
        model: TTS,
        input: "stream me",
        voice: "fable",
        response_format: "wav",
      }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.value![0]).toBe(0x52);
    const seen = events.at(-1)!;
    // The first bytes came while the upstream had most of its audio still to send.
    expect(seen.sent).toBeLessThan(CHUNKS / 2);
    expect(seen.auth).toBe("Bearer slow-key");
    expect(seen.body).toEqual({
      model: "tts-upstream",
      input: "stream me",
      voice: "fable",
      response_format: "wav",
      speed: 1,
    });
    controller.abort();
    const deadline = Date.now() + 3000;
    while (seen.closedEarly === undefined && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(seen.closedEarly).toBe(true);
    expect(seen.sent).toBeLessThan(CHUNKS);
    // Charged once all the same: the upstream made the audio.
    await slow.gateway.services.accounting!.flush();
    const rows = (
      await slow.gateway.services.store.queryLogs({ userId: "alice" }, { offset: 0, limit: 10 })
    ).items;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.credits).toBe(
      creditsFor(slow.gateway.services.prices.ratesOrFree(TTS), { characters: 9 }),
    );
  });

  it("holds the channel's connection while audio streams: a call past it gets 503", async () => {
    const speech = (signal?: AbortSignal) =>
      fetch(`${slow.gateway.url}/v1/audio/speech`, {
        method: "POST",
        headers: { "content-type": "application/json", ...auth(KEY) },
        body: JSON.stringify({ model: TTS, input: "hold", voice: "fable", response_format: "wav" }),
        ...(signal === undefined ? {} : { signal }),
      });
    const inUse = () => slow.gateway.services.router.slots.inUse().get("slow") ?? 0;
    const streaming = new AbortController();
    const first = await speech(streaming.signal);
    expect(first.status).toBe(200);
    await first.body!.getReader().read();
    expect(inUse()).toBe(1);

    const refused = await speech();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /in use \(waited 300 ms\)/,
    );

    // The client leaves: the relay ends, the upstream body closes, the connection is free.
    streaming.abort();
    const deadline = Date.now() + 3000;
    while (inUse() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(inUse()).toBe(0);
    const again = new AbortController();
    const next = await speech(again.signal);
    expect(next.status).toBe(200);
    again.abort();
  });
});

/** One second of 8 kHz 16-bit mono silence as a WAV file. */
function silentWav(): Buffer {
  const rate = 8000;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + rate * 2, 4);
  header.write("WAVEfmt ", 8, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(rate * 2, 40);
  return Buffer.concat([header, Buffer.alloc(rate * 2)]);
}

describe("audio on a protocol that does not declare the audio API", () => {
  // Who speaks audio is the protocol's declaration (`Protocol.media.audio`), not a provider name:
  // a channel of another protocol serving an audio model is refused, before any upstream call.
  let other: Stack;
  beforeAll(async () => {
    other = await startStack({
      channels: [
        {
          name: "ge-audio",
          protocol: "gemini",
          base_url: "http://127.0.0.1:9/",
          api_key: "ge-key",
          models: { [TTS]: "tts-upstream", "asrW-1": "asr-upstream" },
        },
      ],
    });
  });
  afterAll(async () => {
    await other.close();
  });

  it("refuses speech and transcriptions with a 400 naming the model, charging nothing", async () => {
    const speech = await postJson(`${other.gateway.url}/v1/audio/speech`, {
      model: TTS,
      input: "x",
      voice: "alloy",
    });
    expect(speech.status).toBe(400);
    expect(speech.json.error).toMatchObject({
      type: "invalid_request_error",
      param: "model",
      message: `model ${TTS} has no channel that speaks the OpenAI audio API`,
    });

    const form = new FormData();
    form.append("model", "asrW-1");
    form.append("file", new Blob([new Uint8Array(silentWav())], { type: "audio/wav" }), "a.wav");
    const transcription = await fetch(`${other.gateway.url}/v1/audio/transcriptions`, {
      method: "POST",
      headers: auth(),
      body: form,
    });
    expect(transcription.status).toBe(400);
    expect(await transcription.json()).toMatchObject({
      error: {
        param: "model",
        message: "model asrW-1 has no channel that speaks the OpenAI audio API",
      },
    });
    expect(await usageRowsOf(other, speech.headers.get("x-request-id")!)).toEqual([]);
  });
});

describe("the channel's own timeouts", () => {
  let timed: Stack;
  beforeAll(async () => {
    // The same speech model on a channel with a short first-byte timeout, then one without.
    timed = await startStack(
      {
        extraChannels: (simUrl) => [
          {
            name: "slow",
            protocol: "openai",
            base_url: simUrl,
            api_key: UPSTREAM_KEY,
            models: { [TTS]: "gpt-4o-mini-tts" },
            timeout: { first_byte_ms: 300, idle_ms: 300 },
          },
          {
            name: "patient",
            protocol: "openai",
            base_url: simUrl,
            api_key: UPSTREAM_KEY,
            models: { [TTS]: "gpt-4o-mini-tts" },
            priority: 1,
          },
        ],
      },
      // The agent's own timeouts are longer than the fault's latency: only the channel's can cut it.
      { timeouts: { headersMs: 10_000, bodyMs: 10_000, connectMs: 1000 } },
    );
  });
  afterAll(async () => {
    await timed.close();
  });

  it("a channel past its first_byte_ms is left for the next one, as on generation", async () => {
    const response = await fetch(`${timed.gateway.url}/v1/audio/speech`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth() },
      body: JSON.stringify({
        model: TTS,
        input: "[[fault:latency=3000,times=1]] late",
        voice: "alloy",
        response_format: "wav",
      }),
      signal: AbortSignal.timeout(20_000),
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const rows = await usageRowsOf(timed, response.headers.get("x-request-id"));
    expect(rows).toMatchObject([{ status: 200, channel: "patient" }]);
  });
});
