// The chat-completions converter on one core: request parse+render (typical and large), response
// parse+render, and stream events/s decoding the recorded OpenAI/DeepSeek/Groq fixtures and
// encoding their canonical events back to chat.completion.chunk frames.
//   pnpm --filter @interlingua/fmt-chat build && cd bench && node src/fmt-chat.bench.ts
import { readFileSync } from "node:fs";
import type { SseMessage, StreamEvent } from "@interlingua/core-types";
import {
  ChatStreamDecoder,
  ChatStreamEncoder,
  parseChatRequest,
  parseChatResponse,
  renderChatRequest,
  renderChatResponse,
} from "@interlingua/fmt-chat";
import { type Measurement, measure, report } from "./measure.ts";
import { typicalChatRequest, weatherTool } from "./sample-chat.ts";

const fixtures = new URL("../../fixtures/openai-chat/", import.meta.url);
const read = (name: string) => readFileSync(new URL(name, fixtures), "utf8");
const framesOf = (name: string): SseMessage[] => [
  ...read(`${name}.chunks.txt`)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((data) => ({ data })),
  { data: "[DONE]" },
];

const typical = {
  ...typicalChatRequest,
  stream: true,
  stream_options: { include_usage: true },
};

const imageUrl = { type: "image_url", image_url: { url: "https://example.com/photo.jpg" } };
const imageData = {
  type: "image_url",
  image_url: { url: `data:image/png;base64,${"iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB".repeat(8)}` },
};
const large = {
  ...typical,
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    ...Array.from({ length: 100 }, (_, i) => {
      if (i % 4 === 0) {
        return {
          role: "user",
          content: [
            { type: "text", text: `Look at picture ${i}.` },
            i % 8 === 0 ? imageUrl : imageData,
          ],
        };
      }
      if (i % 4 === 1) {
        return {
          role: "assistant",
          content: `I see picture ${i - 1}; checking the weather.`,
          tool_calls: [
            {
              id: `call_${i}`,
              type: "function",
              function: { name: "get_weather", arguments: '{"city":"Paris"}' },
            },
          ],
        };
      }
      if (i % 4 === 2) return { role: "tool", tool_call_id: `call_${i - 1}`, content: "sunny" };
      return { role: "user", content: `Thanks. Question ${i}: what next?` };
    }),
  ],
  tools: Array.from({ length: 8 }, (_, i) => ({
    ...weatherTool,
    function: { ...weatherTool.function, name: `tool_${i}` },
  })),
};

const responses = ["openai-text", "deepseek-tool-call"].map((name) =>
  JSON.parse(read(`${name}.json`)),
);

// Twelve rows at this budget keep the whole run under about 15 s.
const budgetMs = 900;

const rows: Measurement[] = [
  measure(
    "request parse+render (typical)",
    () => {
      renderChatRequest(parseChatRequest(typical));
    },
    { budgetMs },
  ),
  measure(
    "request parse+render (100 messages, tools, images)",
    () => {
      renderChatRequest(parseChatRequest(large));
    },
    { budgetMs },
  ),
  ...responses.map((body, i) =>
    measure(
      `response parse+render (${["openai-text", "deepseek-tool-call"][i]})`,
      () => {
        renderChatResponse(parseChatResponse(body));
      },
      { budgetMs },
    ),
  ),
];
report(rows, "ops/s");

const eventRows: Measurement[] = [];
for (const name of ["openai-text", "deepseek-reasoning", "deepseek-tool-call", "groq-tool-call"]) {
  const frames = framesOf(name);
  const events: StreamEvent[] = [];
  const collect = new ChatStreamDecoder();
  for (const frame of frames) collect.push(frame, (e) => events.push(e));
  collect.end((e) => events.push(e));
  const ignoreEvent = (_: StreamEvent) => {};
  const ignoreFrame = (_: SseMessage) => {};
  const decode = measure(
    `stream decode (${name})`,
    () => {
      const decoder = new ChatStreamDecoder();
      for (const frame of frames) decoder.push(frame, ignoreEvent);
      decoder.end(ignoreEvent);
    },
    { budgetMs },
  );
  const encode = measure(
    `stream encode (${name})`,
    () => {
      const encoder = new ChatStreamEncoder({ providerExtras: { openai: { includeUsage: true } } });
      for (const event of events) encoder.push(event, ignoreFrame);
      encoder.end(ignoreFrame);
    },
    { budgetMs },
  );
  eventRows.push(
    { name: decode.name, opsPerSecond: decode.opsPerSecond * events.length },
    { name: encode.name, opsPerSecond: encode.opsPerSecond * events.length },
  );
}
report(eventRows, "events/s");
