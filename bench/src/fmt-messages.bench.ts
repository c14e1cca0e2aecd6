// The messages format converter on one core: request parse+render (typical and large), result
// parse+render, and stream events/s decoding the recorded Anthropic fixtures and encoding their
// canonical events back to messages-format frames.
//   pnpm --filter @interlingua/fmt-messages build && cd bench && node src/fmt-messages.bench.ts
import { readFileSync } from "node:fs";
import type { SseMessage, StreamEvent } from "@interlingua/core-types";
import {
  MessagesStreamDecoder,
  MessagesStreamEncoder,
  parseMessagesRequest,
  parseMessagesResponse,
  renderMessagesRequest,
  renderMessagesResponse,
} from "@interlingua/fmt-messages";
import { measure, report } from "./measure.ts";

const fixtures = new URL("../../fixtures/anthropic/", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, fixtures), "utf8");
const framesOf = (name: string): SseMessage[] =>
  read(name)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((data) => ({ event: (JSON.parse(data) as { type: string }).type, data }));

const weatherTool = {
  name: "get_weather",
  description: "Current weather for a city",
  input_schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};

const typical = {
  model: "txtB-sonnet-4-6",
  max_tokens: 1024,
  system: "You are a helpful assistant.",
  messages: [
    { role: "user", content: "What is the weather in Paris?" },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Let me check." },
        { type: "tool_use", id: "toolu_01", name: "get_weather", input: { city: "Paris" } },
      ],
    },
    {
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_01", content: '{"temp":21,"sky":"clear"}' },
        { type: "text", text: "And what should I wear?" },
      ],
    },
  ],
  tools: [weatherTool],
  temperature: 0.7,
  stream: true,
};

const image = {
  type: "image",
  source: { type: "url", url: "https://example.com/photo.jpg" },
};
const large = {
  ...typical,
  system: [
    { type: "text", text: "You are a meticulous assistant.", cache_control: { type: "ephemeral" } },
  ],
  tools: Array.from({ length: 10 }, (_, i) => ({ ...weatherTool, name: `tool_${i}` })),
  messages: Array.from({ length: 100 }, (_, i) =>
    i % 2 === 0
      ? {
          role: "user",
          content: [
            { type: "text", text: `Question ${i}: ${"lorem ipsum ".repeat(20)}` },
            ...(i % 10 === 0 ? [image] : []),
          ],
        }
      : {
          role: "assistant",
          content: [
            { type: "text", text: `Answer ${i}: ${"dolor sit amet ".repeat(20)}` },
            { type: "tool_use", id: `toolu_${i}`, name: "tool_1", input: { city: `City ${i}` } },
          ],
        },
  ),
};
// Every assistant tool_use needs its result in the next user turn.
for (let i = 2; i < large.messages.length; i += 2) {
  const message = large.messages[i] as { content: unknown[] };
  message.content.unshift({ type: "tool_result", tool_use_id: `toolu_${i - 1}`, content: "ok" });
}

const responses = [
  "anthropic-text.json",
  "anthropic-clear-thinking.1.json",
  "anthropic-json-tool.1.json",
  "anthropic-tool-no-args.json",
].map((name) => JSON.parse(read(name)) as unknown);

const streams = [
  "anthropic-text.chunks.txt",
  "anthropic-clear-thinking.1.chunks.txt",
  "anthropic-json-tool.1.chunks.txt",
  "anthropic-tool-no-args.chunks.txt",
  "anthropic-message-delta-input-tokens.chunks.txt",
  "anthropic-refusal.chunks.txt",
  "duplicate-message-start.chunks.txt",
].map(framesOf);
const frameCount = streams.reduce((n, s) => n + s.length, 0);

function decode(frames: readonly SseMessage[]): StreamEvent[] {
  const decoder = new MessagesStreamDecoder();
  const out: StreamEvent[] = [];
  const emit = (e: StreamEvent) => out.push(e);
  for (const frame of frames) decoder.push(frame, emit);
  return out;
}
const canonicalStreams = streams.map(decode);
const eventCount = canonicalStreams.reduce((n, s) => n + s.length, 0);

let sink = 0;
const rows = [
  measure("request parse+render, typical", () => {
    sink += renderMessagesRequest(parseMessagesRequest(typical)).max_tokens;
  }),
  measure("request parse+render, large (100 msgs)", () => {
    sink += renderMessagesRequest(parseMessagesRequest(large)).messages.length;
  }),
  measure("response parse+render", () => {
    for (const wire of responses)
      sink += renderMessagesResponse(parseMessagesResponse(wire)).content.length;
  }),
];
report(rows.slice(0, 2), "requests/s");
report(
  rows.slice(2).map((r) => ({ ...r, opsPerSecond: r.opsPerSecond * responses.length })),
  "responses/s",
);

const decodeRate = measure("stream decode (fixture frames)", () => {
  for (const frames of streams) sink += decode(frames).length;
});
const encodeRate = measure("stream encode (canonical events)", () => {
  for (const events of canonicalStreams) {
    const encoder = new MessagesStreamEncoder();
    const emit = (m: SseMessage) => {
      sink += m.data.length;
    };
    for (const event of events) encoder.push(event, emit);
    encoder.end(emit);
  }
});
report(
  [
    { ...decodeRate, opsPerSecond: decodeRate.opsPerSecond * frameCount },
    { ...encodeRate, opsPerSecond: encodeRate.opsPerSecond * eventCount },
  ],
  "events/s",
);
if (sink === 0) console.log("(sink)");
