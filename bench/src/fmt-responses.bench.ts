// The responses format converter on one core: request parse+render (typical and large), result
// parse+render, and stream events/s decoding the recorded OpenAI Responses fixtures and encoding
// their canonical events back.
//   pnpm --filter @interlingua/fmt-responses build && cd bench && node src/fmt-responses.bench.ts
import { readFileSync } from "node:fs";
import type { Response, SseMessage, StreamEvent } from "@interlingua/core-types";
import { responseToEvents } from "@interlingua/core-types";
import {
  decodeResponsesEvents,
  encodeResponsesEvents,
  parseInterlinguaResponsesResponse,
  parseResponsesRequest,
  renderInterlinguaResponsesRequest,
  renderInterlinguaResponsesResponse,
} from "@interlingua/fmt-responses";
import { measure, report } from "./measure.ts";

const fixtures = new URL("../../fixtures/openai-responses/", import.meta.url);
const messagesOf = (name: string): SseMessage[] =>
  readFileSync(new URL(name, fixtures), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((data) => ({ data }));

const weatherTool = {
  type: "function",
  function: {
    name: "get_weather",
    description: "Current weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

const typical = {
  model: "txtA-5.2-pro",
  instructions: "You are a helpful assistant.",
  input: [
    { role: "user", content: [{ type: "input_text", text: "What is the weather in Paris?" }] },
    {
      type: "function_call",
      call_id: "call_1",
      name: "get_weather",
      arguments: '{"city":"Paris"}',
    },
    { type: "function_call_output", call_id: "call_1", output: '{"temp":21,"sky":"clear"}' },
    { role: "user", content: "And what should I wear?" },
  ],
  temperature: 0.7,
  max_tokens: 1024,
  stream: true,
  tools: [weatherTool, { type: "web_search" }],
};

const png =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const large = {
  model: "txtA-5.2-pro",
  instructions: "You are a helpful assistant. ".repeat(20),
  input: Array.from({ length: 100 }, (_, i) =>
    i % 4 === 0
      ? {
          role: "user",
          content: [
            {
              type: "input_text",
              text: `Question ${i}: describe the attached images in detail, please.`,
            },
            { type: "input_image", image_url: `https://images.example.com/photo-${i}.jpg` },
            { type: "input_image", image_url: `data:image/png;base64,${png}` },
          ],
        }
      : i % 4 === 1
        ? {
            type: "function_call",
            call_id: `call_${i}`,
            name: "get_weather",
            arguments: '{"city":"Paris"}',
          }
        : i % 4 === 2
          ? {
              type: "function_call_output",
              call_id: `call_${i - 1}`,
              output: '{"temp":21,"sky":"clear"}',
            }
          : {
              role: "assistant",
              content: [{ type: "output_text", text: `Answer ${i}. `.repeat(30) }],
            },
  ),
  tools: Array.from({ length: 12 }, (_, i) => ({
    ...weatherTool,
    function: { ...weatherTool.function, name: `tool_${i}` },
  })),
  temperature: 0.7,
  max_tokens: 4096,
};

const result = {
  id: "resp_1",
  object: "response",
  created: 1765000000,
  model: "txtA-5.2-pro",
  choices: [
    {
      index: 0,
      message: {
        role: "assistant",
        content: "It is 21 degrees and clear in Paris. A light jacket will do.",
        tool_calls: [
          {
            id: "call_2",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Lyon"}' },
          },
        ],
      },
      finish_reason: "tool_calls",
    },
  ],
  usage: { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 },
};

const recorded = [
  ...messagesOf("openai-reasoning-encrypted-content.1.chunks.txt"),
  ...messagesOf("parallel-tool-call-wrapper.1.chunks.txt"),
];
const canonicalEvents: StreamEvent[] = decodeResponsesEvents(
  messagesOf("openai-reasoning-encrypted-content.1.chunks.txt"),
);
// A long text answer, as a gateway mostly streams.
const longText: Response = {
  id: "resp_long",
  model: "txtA-5.2-pro",
  created: 1765000000,
  message: { role: "assistant", parts: [{ type: "text", text: "" }] },
  finishReason: { unified: "stop" },
  usage: {
    inputTokens: 10,
    outputTokens: 500,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
};
const textEvents: StreamEvent[] = [
  ...responseToEvents(longText).slice(0, 2),
  ...Array.from(
    { length: 500 },
    (_, i): StreamEvent => ({ type: "text-delta", index: 0, delta: `word${i} ` }),
  ),
  ...responseToEvents(longText).slice(2),
];
const textFrames = encodeResponsesEvents(textEvents);

const budgetMs = 1200;
const rows = [
  measure(
    "request parse+render, typical",
    () => renderInterlinguaResponsesRequest(parseResponsesRequest(typical)),
    { budgetMs },
  ),
  measure(
    "request parse+render, large (100 items, 12 tools, 50 images)",
    () => renderInterlinguaResponsesRequest(parseResponsesRequest(large)),
    { budgetMs },
  ),
  measure(
    "result parse+render",
    () => renderInterlinguaResponsesResponse(parseInterlinguaResponsesResponse(result)),
    { budgetMs },
  ),
];
const streamRows = [
  {
    ...measure("stream decode, recorded fixtures", () => decodeResponsesEvents(recorded), {
      budgetMs,
    }),
    per: recorded.length,
  },
  {
    ...measure("stream decode, long text", () => decodeResponsesEvents(textFrames), { budgetMs }),
    per: textFrames.length,
  },
  {
    ...measure("stream encode, fixture events", () => encodeResponsesEvents(canonicalEvents), {
      budgetMs,
    }),
    per: canonicalEvents.length,
  },
  {
    ...measure("stream encode, long text", () => encodeResponsesEvents(textEvents), { budgetMs }),
    per: textEvents.length,
  },
].map(({ per, ...row }) => ({ ...row, opsPerSecond: row.opsPerSecond * per }));

report(rows, "conversions/s");
report(streamRows, "events/s");
