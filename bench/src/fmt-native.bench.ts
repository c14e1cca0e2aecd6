// The generate-content codec: request and response conversions per second, and stream events per
// second through the decoder and the encoder, on the recorded Gemini streams.
// Run: pnpm --filter @interlingua/fmt-native build && node src/fmt-native.bench.ts
import { readFileSync } from "node:fs";
import type { SseMessage, StreamEvent } from "@interlingua/core-types";
import {
  decodeNativeStream,
  encodeNativeStream,
  NativeStreamDecoder,
  NativeStreamEncoder,
  parseNativeRequest,
  parseNativeResponse,
  renderNativeRequest,
  renderNativeResponse,
} from "@interlingua/fmt-native";
import { type Measurement, measure, measureAsync, report } from "./measure.ts";

const fixtures = new URL("../../fixtures/gemini/", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, fixtures), "utf8");

const tools = [
  {
    functionDeclarations: [
      {
        name: "get_weather",
        description: "Current weather for a city",
        parameters: {
          type: "object",
          properties: {
            city: { type: "string", description: "City name" },
            unit: { type: "string", enum: ["celsius", "fahrenheit"] },
          },
          required: ["city"],
        },
      },
      {
        name: "get_time",
        description: "Local time in a timezone",
        parameters: { type: "object", properties: { tz: { type: "string" } } },
      },
    ],
  },
];

const typical = {
  systemInstruction: { parts: [{ text: "You are a concise assistant." }] },
  contents: [
    { role: "user", parts: [{ text: "What is the weather in Paris?" }] },
    {
      role: "model",
      parts: [
        {
          functionCall: { name: "get_weather", args: { city: "Paris" } },
          thoughtSignature: "c2ln",
        },
      ],
    },
    {
      role: "user",
      parts: [{ functionResponse: { name: "get_weather", response: { result: "18C, clear" } } }],
    },
  ],
  tools,
  generationConfig: {
    temperature: 0.7,
    maxOutputTokens: 1024,
    thinkingConfig: { thinkingBudget: 512 },
  },
};

const image = {
  inlineData: {
    mimeType: "image/png",
    data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  },
};
const large = {
  systemInstruction: { parts: [{ text: "You are a careful assistant. ".repeat(20) }] },
  contents: Array.from({ length: 100 }, (_, i) =>
    i % 4 === 0
      ? { role: "user", parts: [{ text: `Question ${i}: ${"lorem ipsum ".repeat(20)}` }, image] }
      : i % 4 === 1
        ? {
            role: "model",
            parts: [{ functionCall: { name: "get_weather", args: { city: `City ${i}` } } }],
          }
        : i % 4 === 2
          ? {
              role: "user",
              parts: [{ functionResponse: { name: "get_weather", response: { result: `${i}C` } } }],
            }
          : { role: "model", parts: [{ text: `Answer ${i}: ${"dolor sit amet ".repeat(20)}` }] },
  ),
  tools,
  generationConfig: { temperature: 0.2, maxOutputTokens: 4096 },
};

const responses = ["google-text.json", "google-reasoning.json", "google-tool-call.json"].map((f) =>
  JSON.parse(read(f)),
);

const streams = [
  "google-text",
  "google-reasoning",
  "google-tool-call",
  "google-tool-call-gemini3",
  "google-stream-no-args-tool-call",
].map((name) =>
  read(`${name}.chunks.txt`)
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((data): SseMessage => ({ data })),
);

function decode(frames: SseMessage[]): StreamEvent[] {
  const events: StreamEvent[] = [];
  const decoder = new NativeStreamDecoder();
  for (const frame of frames) decoder.push(frame, (e) => events.push(e));
  decoder.end((e) => events.push(e));
  return events;
}
const decodeAll = () => streams.reduce((n, frames) => n + decode(frames).length, 0);
const decodedStreams = streams.map(decode);
const eventCount = decodeAll();
const frameCount = streams.reduce((n, s) => n + s.length, 0);

let sink = 0;
const perRecording = (m: Measurement, n: number): Measurement => ({
  ...m,
  opsPerSecond: m.opsPerSecond * n,
});

report(
  [
    measure("request parse+render (typical)", () => {
      const request = parseNativeRequest(typical, { model: "txtC-2.5-pro" });
      sink += renderNativeRequest(request).contents.length;
    }),
    measure("request parse+render (100 messages, tools, images)", () => {
      const request = parseNativeRequest(large, { model: "txtC-2.5-pro" });
      sink += renderNativeRequest(request).contents.length;
    }),
    perRecording(
      measure("response parse+render (recordings)", () => {
        for (const r of responses) {
          sink += renderNativeResponse(parseNativeResponse(r)).usageMetadata?.totalTokenCount ?? 0;
        }
      }),
      responses.length,
    ),
  ],
  "conversions/s",
);

const events: Measurement[] = [
  perRecording(
    measure("stream decode (sync)", () => {
      sink += decodeAll();
    }),
    eventCount,
  ),
  perRecording(
    measure("stream encode (sync)", () => {
      for (const stream of decodedStreams) {
        const encoder = new NativeStreamEncoder();
        for (const e of stream) encoder.push(e, () => sink++);
        encoder.end(() => sink++);
      }
    }),
    eventCount,
  ),
];

events.push(
  await measureAsync(
    "stream decode (TransformStream)",
    async () => {
      for (const frames of streams) {
        const readable = new ReadableStream<SseMessage>({
          start(c) {
            for (const f of frames) c.enqueue(f);
            c.close();
          },
        }).pipeThrough(decodeNativeStream());
        for await (const _ of readable) sink++;
      }
    },
    { unitsPerOp: eventCount, budgetMs: 1500 },
  ),
  await measureAsync(
    "stream encode (TransformStream)",
    async () => {
      for (const stream of decodedStreams) {
        const readable = new ReadableStream<StreamEvent>({
          start(c) {
            for (const e of stream) c.enqueue(e);
            c.close();
          },
        }).pipeThrough(encodeNativeStream());
        for await (const _ of readable) sink++;
      }
    },
    { unitsPerOp: eventCount, budgetMs: 1500 },
  ),
);
// The ceiling any TransformStream stage has here: the same events through one that does nothing.
events.push(
  await measureAsync(
    "baseline: identity TransformStream",
    async () => {
      for (const stream of decodedStreams) {
        const readable = new ReadableStream<StreamEvent>({
          start(c) {
            for (const e of stream) c.enqueue(e);
            c.close();
          },
        }).pipeThrough(new TransformStream<StreamEvent, StreamEvent>());
        for await (const _ of readable) sink++;
      }
    },
    { unitsPerOp: eventCount, budgetMs: 1000 },
  ),
);
report(events, "events/s");
console.log(`(${eventCount} events from ${frameCount} recorded frames per pass; sink ${sink > 0})`);
