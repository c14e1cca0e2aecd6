// Cross-format conversion on one core, against @musistudio/llms 1.0.53 on the same inputs:
// - streams, bytes in -> bytes out: Anthropic SSE -> chat SSE and chat SSE -> Anthropic SSE
//   (decodeSse -> decode -> encode -> encodeSse), over the recorded fixtures repeated to ~1.5 MB a pass,
//   each recording its own stream as a gateway sees it; rates are canonical stream events/s;
//   and the same through one fused translateSse(from.stream.decoder(), to.stream.encoder());
// - every direction between the formats on translateSse and on its synchronous core
//   (createSseTranslator, what the gateway runs per upstream chunk), against the 300k target;
// - requests: a typical and a large (100 messages, tools, images) messages-format request
//   converted to chat (messages.request.parse + chat.request.render).
// The peer converts chat SSE -> Anthropic SSE only (transformResponseIn) and Anthropic requests ->
// its OpenAI-chat shape (transformRequestOut), so those are the rows with a ratio.
//   pnpm --filter "@interlingua/fmt-*" build && cd bench && node src/cross-format.bench.ts
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Codec, StreamEvent } from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { messages } from "@interlingua/fmt-messages";
import { native } from "@interlingua/fmt-native";
import { responses } from "@interlingua/fmt-responses";
import { createSseTranslator, decodeSse, encodeSse, translateSse } from "@interlingua/sse";
import { type Measurement, measure, measureAsync, report } from "./measure.ts";

const fixtures = new URL("../../fixtures/", import.meta.url);
const targetBytes = 1_500_000;
const encoder = new TextEncoder();

/** Recordings as their provider's SSE bytes (fixtures/README.md framing). */
function recorded(
  folder: string,
  frame: (line: string) => string,
  end: string,
  only: (file: string) => boolean = () => true,
): string[] {
  const dir = new URL(`${folder}/`, fixtures);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".chunks.txt") && only(f))
    .sort()
    .map(
      (f) =>
        readFileSync(new URL(f, dir), "utf8")
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map(frame)
          .join("") + end,
    );
}

/** The recordings cycled until they add up to `targetBytes`. */
function corpus(streams: string[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let bytes = 0;
  for (let i = 0; bytes < targetBytes; i++) {
    const chunk = encoder.encode(streams[i % streams.length]!);
    out.push(chunk);
    bytes += chunk.byteLength;
  }
  return out;
}

const anthropicSse = corpus(
  recorded(
    "anthropic",
    (line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`,
    "",
  ),
);
const chatFrame = (line: string) => `data: ${line}\n\n`;
const chatSse = corpus(recorded("openai-chat", chatFrame, "data: [DONE]\n\n"));
// The peer drops chat `reasoning_content` (the DeepSeek recordings come out with a tenth of the
// frames), so the like-for-like ratio uses the recordings it converts whole.
const chatSseWhole = corpus(
  recorded("openai-chat", chatFrame, "data: [DONE]\n\n", (f) => !f.startsWith("deepseek")),
);
const size = (list: Uint8Array[]) => list.reduce((n, b) => n + b.byteLength, 0);

const bytesOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

async function drain(stream: ReadableStream<unknown>): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += (chunk as { byteLength?: number }).byteLength ?? 1;
  return n;
}

/** SSE frames in a converter's output, to show both sides produce the same amount. */
async function framesOut(list: Uint8Array[], one: (b: Uint8Array) => ReadableStream<Uint8Array>) {
  let frames = 0;
  const decoder = new TextDecoder();
  for (const bytes of list) {
    for await (const chunk of one(bytes)) frames += decoder.decode(chunk).split("\n\n").length - 1;
  }
  return frames;
}

/** One stream through our pipeline, bytes to bytes. */
const pipeline = (from: Codec, to: Codec, bytes: Uint8Array) =>
  bytesOf(bytes)
    .pipeThrough(decodeSse())
    .pipeThrough(from.stream.decode())
    .pipeThrough(to.stream.encode({ providerExtras: { openai: { includeUsage: true } } }))
    .pipeThrough(encodeSse());
const convert = (from: Codec, to: Codec, bytes: Uint8Array) => drain(pipeline(from, to, bytes));
/** The same through one fused TransformStream (translateSse over the push transformers). */
const fusedPipeline = (from: Codec, to: Codec, bytes: Uint8Array) =>
  bytesOf(bytes).pipeThrough(
    translateSse(
      from.stream.decoder(),
      to.stream.encoder({ providerExtras: { openai: { includeUsage: true } } }),
    ),
  );
const convertFused = (from: Codec, to: Codec, bytes: Uint8Array) =>
  drain(fusedPipeline(from, to, bytes));
/**
 * The same translation with no web stream at all: `createSseTranslator`, the synchronous core of
 * translateSse, which the gateway runs on each upstream chunk. Output text is encoded to bytes,
 * as a socket write would.
 */
const convertSync = (from: Codec, to: Codec, bytes: Uint8Array) => {
  const translator = createSseTranslator(
    from.stream.decoder(),
    to.stream.encoder({ providerExtras: { openai: { includeUsage: true } } }),
  );
  return utf8Out.encode(translator.push(bytes) + translator.end()).byteLength;
};
const utf8Out = new TextEncoder();

/** Canonical events in one pass over a corpus: the unit of the stream rates. */
async function eventCount(from: Codec, list: Uint8Array[]): Promise<number> {
  let n = 0;
  for (const bytes of list) {
    n += await drain(
      bytesOf(bytes)
        .pipeThrough(decodeSse())
        .pipeThrough(from.stream.decode() as TransformStream<unknown, StreamEvent>),
    );
  }
  return n;
}

// The peer. Its ESM build is broken, so it is loaded as CommonJS.
const peerModule = createRequire(import.meta.url)("@musistudio/llms");
const PeerServer = peerModule.default ?? peerModule;
const peer = new PeerServer({ initialConfig: { providers: [] }, logger: false });
await peer.transformerService.initialize?.();
const peerAnthropic = peer.transformerService.getTransformer("Anthropic");
const peerContext = { req: { id: "bench" } };

const peerStream = async (bytes: Uint8Array): Promise<ReadableStream<Uint8Array>> => {
  const response: Response = await peerAnthropic.transformResponseIn(
    new Response(bytes, { headers: { "content-type": "text/event-stream" } }),
    peerContext,
  );
  return response.body!;
};
const peerChatToAnthropic = async (bytes: Uint8Array) => drain(await peerStream(bytes));

// Requests: the shapes of bench/src/fmt-messages.bench.ts, with images by URL and base64.
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
const images = [
  { type: "image", source: { type: "url", url: "https://example.com/photo.jpg" } },
  {
    type: "image",
    source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo".repeat(200) },
  },
];
const large = {
  ...typical,
  tools: Array.from({ length: 10 }, (_, i) => ({ ...weatherTool, name: `tool_${i}` })),
  messages: Array.from({ length: 100 }, (_, i) =>
    i % 2 === 0
      ? {
          role: "user",
          content: [
            ...(i > 0
              ? [{ type: "tool_result", tool_use_id: `toolu_${i - 1}`, content: "ok" }]
              : []),
            { type: "text", text: `Question ${i}: ${"lorem ipsum ".repeat(20)}` },
            ...(i % 10 === 0 ? images : []),
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
// The last turn must be the user's: close the final assistant call with its result.
large.messages.push({
  role: "user",
  content: [{ type: "tool_result", tool_use_id: "toolu_99", content: "ok" }],
});

// The peer may edit the request it is given; each call gets a fresh copy, and so do ours, so both
// sides pay the same copy.
const fresh = <T>(value: T): T => structuredClone(value);
let sink = 0;
const ours = (request: unknown) => () => {
  sink += chat.request.render(messages.request.parse(fresh(request))).messages.length;
};
const batch = 20;
const theirs = (request: unknown) => async () => {
  for (let i = 0; i < batch; i++) {
    const out = await peerAnthropic.transformRequestOut(fresh(request));
    sink += out.messages.length;
  }
};

function printRatio(name: string, a: Measurement, b: Measurement): void {
  console.log(
    `ratio interlingua / llms, ${name}: ${(a.opsPerSecond / b.opsPerSecond).toFixed(2)}x`,
  );
}

const budgetMs = 1200;
const requests = [
  ["typical", typical],
  ["large (100 msgs, tools, images)", large],
] as const;
const requestRows: Measurement[] = [];
for (const [name, request] of requests) {
  const a = measure(`interlingua messages -> chat request, ${name}`, ours(request), { budgetMs });
  const b = await measureAsync(`@musistudio/llms transformRequestOut, ${name}`, theirs(request), {
    budgetMs,
    unitsPerOp: batch,
  });
  requestRows.push(a, b);
}
console.log(`requests (${typical.messages.length} and ${large.messages.length} messages)`);
report(requestRows, "requests/s");
requests.forEach(([name], i) => {
  printRatio(name, requestRows[2 * i]!, requestRows[2 * i + 1]!);
});
// Both rows above include a structuredClone per request, because the peer mutates its input.
// Our converters never mutate theirs, so this is what a gateway pays per request:
report(
  requests.map(([name, request]) =>
    measure(
      `interlingua messages -> chat request, ${name}, no copy`,
      () => {
        sink += chat.request.render(messages.request.parse(request)).messages.length;
      },
      { budgetMs },
    ),
  ),
  "requests/s",
);

const streamRate = async (
  name: string,
  list: Uint8Array[],
  events: number,
  one: (bytes: Uint8Array) => Promise<number> | number,
) =>
  measureAsync(
    name,
    async () => {
      for (const bytes of list) sink += await one(bytes);
    },
    { budgetMs, unitsPerOp: events, bytesPerOp: size(list) },
  );

const anthropicEvents = await eventCount(messages, anthropicSse);
const chatEvents = await eventCount(chat, chatSse);
const wholeEvents = await eventCount(chat, chatSseWhole);
const streamRows = [
  await streamRate("interlingua Anthropic SSE -> chat SSE", anthropicSse, anthropicEvents, (b) =>
    convert(messages, chat, b),
  ),
  await streamRate("interlingua chat SSE -> Anthropic SSE", chatSse, chatEvents, (b) =>
    convert(chat, messages, b),
  ),
  await streamRate(
    "interlingua fused Anthropic SSE -> chat SSE",
    anthropicSse,
    anthropicEvents,
    (b) => convertFused(messages, chat, b),
  ),
  await streamRate("interlingua fused chat SSE -> Anthropic SSE", chatSse, chatEvents, (b) =>
    convertFused(chat, messages, b),
  ),
  await streamRate("@musistudio/llms chat SSE -> Anthropic SSE", chatSse, chatEvents, (b) =>
    peerChatToAnthropic(b),
  ),
  await streamRate("interlingua chat -> Anthropic, no reasoning", chatSseWhole, wholeEvents, (b) =>
    convert(chat, messages, b),
  ),
  await streamRate(
    "@musistudio/llms chat -> Anthropic, no reasoning",
    chatSseWhole,
    wholeEvents,
    (b) => peerChatToAnthropic(b),
  ),
];
const mb = (list: Uint8Array[]) => `${(size(list) / 1e6).toFixed(1)} MB`;
console.log(
  `\nstreams, per pass: ${mb(anthropicSse)} Anthropic (${anthropicSse.length} streams, ${anthropicEvents} events), ` +
    `${mb(chatSse)} chat (${chatSse.length} streams, ${chatEvents} events), ` +
    `${mb(chatSseWhole)} chat without reasoning (${chatSseWhole.length} streams, ${wholeEvents} events); ` +
    "events/s counts canonical events decoded, MB/s input bytes",
);
report(streamRows, "events/s");
const oursOut = await framesOut(chatSse, (b) => pipeline(chat, messages, b));
const peerOut = await framesOut(chatSse, (b) => {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  void peerStream(b).then((body) => body.pipeTo(writable));
  return readable;
});
console.log(
  `Anthropic frames out per chat pass: interlingua ${oursOut}, @musistudio/llms ${peerOut}`,
);
printRatio("chat SSE -> Anthropic SSE, all recordings", streamRows[1]!, streamRows[4]!);
printRatio("fused chat SSE -> Anthropic SSE, all recordings", streamRows[3]!, streamRows[4]!);
printRatio(
  "chat SSE -> Anthropic SSE, recordings both convert whole",
  streamRows[5]!,
  streamRows[6]!,
);

// Every direction on the two single-pass paths: translateSse (one TransformStream per stream, so
// each short recording also pays the web-stream setup) and its synchronous core, which is what
// the gateway runs per upstream chunk. Gemini recordings are framed with CRLF, as Gemini sends them.
const geminiSse = corpus(recorded("gemini", (line) => `data: ${line}\r\n\r\n`, ""));
const geminiEvents = await eventCount(native, geminiSse);
const directions: [string, Codec, Codec, Uint8Array[], number][] = [
  ["Anthropic SSE -> chat SSE", messages, chat, anthropicSse, anthropicEvents],
  ["chat SSE -> Anthropic SSE", chat, messages, chatSse, chatEvents],
  ["Gemini SSE -> chat SSE", native, chat, geminiSse, geminiEvents],
  ["Gemini SSE -> messages SSE", native, messages, geminiSse, geminiEvents],
  ["chat SSE -> native SSE", chat, native, chatSse, chatEvents],
  ["Anthropic SSE -> native SSE", messages, native, anthropicSse, anthropicEvents],
  ["Anthropic SSE -> responses SSE", messages, responses, anthropicSse, anthropicEvents],
  ["chat SSE -> responses SSE", chat, responses, chatSse, chatEvents],
  ["Gemini SSE -> responses SSE", native, responses, geminiSse, geminiEvents],
];
const target = 300_000;
const pathRows: Measurement[] = [];
for (const [name, from, to, list, events] of directions) {
  pathRows.push(
    await streamRate(`translateSse ${name}`, list, events, (b) => convertFused(from, to, b)),
    await streamRate(`sync translator ${name}`, list, events, (b) => convertSync(from, to, b)),
  );
}
console.log(
  `\nevery direction, single pass (Gemini: ${mb(geminiSse)}, ${geminiSse.length} streams, ${geminiEvents} events a pass)`,
);
report(pathRows, "events/s");
const syncRows = pathRows.filter((row) => row.name.startsWith("sync"));
const slowest = syncRows.reduce((a, b) => (a.opsPerSecond <= b.opsPerSecond ? a : b));
console.log(
  `target >= ${target.toLocaleString("en-US")} events/s on the gateway's path: ` +
    `${syncRows.filter((row) => row.opsPerSecond >= target).length}/${syncRows.length} directions met; ` +
    `slowest ${slowest.name.replace("sync translator ", "")} ${Math.round(slowest.opsPerSecond).toLocaleString("en-US")}`,
);
if (sink === 0) console.log("(sink)");
