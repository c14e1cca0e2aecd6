// Interlingua against the two npm peers, @musistudio/llms and llm-bridge (exact versions in
// bench/package.json), on every direction each peer converts: requests, responses and streams.
// Before timing, each peer's output is converted back with our own target codec (whose request
// parser validates the wire shape) and compared with ours; a direction where the peer's output
// is invalid or loses content is reported as such, and its ratio is for information only.
// Also: the README's pipeThrough chain against the fused translateSse on the same streams.
//   pnpm turbo run build --filter=@interlingua/sse... --filter="@interlingua/fmt-*" && cd bench && node src/peers.bench.ts
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { isDeepStrictEqual } from "node:util";
import type { Codec } from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { messages } from "@interlingua/fmt-messages";
import { native } from "@interlingua/fmt-native";
import { responses } from "@interlingua/fmt-responses";
import { decodeSse, encodeSse, translateSse } from "@interlingua/sse";
import * as bridge from "llm-bridge";
import { type Measurement, measure, measureAsync, report } from "./measure.ts";
import { typicalChatRequest } from "./sample-chat.ts";

const budgetMs = 800;
let sink = 0;
const fresh = <T>(value: T): T => structuredClone(value);

// --- requests -------------------------------------------------------------------------------
const chatRequest = typicalChatRequest;
const smallChatRequest = { model: "txtA-5", messages: [{ role: "user", content: "Hello" }] };

// Each format's request, made by our converters from the chat one (checked below to parse back).
const codecs = { chat, messages, responses, native } as const;
type Name = keyof typeof codecs;
const canonical = chat.request.parse(chatRequest);
const requestIn: Record<Name, unknown> = {
  chat: chatRequest,
  messages: messages.request.render(canonical),
  responses: responses.request.render(canonical),
  // The native format names the model in the URL path; the parser takes it as `model`.
  native: { ...(native.request.render(canonical) as object), model: "txtA-5" },
};
const bridgeName: Record<Name, "openai" | "anthropic" | "openai-responses" | "google"> = {
  chat: "openai",
  messages: "anthropic",
  responses: "openai-responses",
  native: "google",
};

/** What the target codec reads from a request body: the comparable meaning of a conversion. */
const meaning = (to: Name, body: unknown) => {
  try {
    const wire = to === "native" ? { model: "txtA-5", ...(body as object) } : body;
    const request = codecs[to].request.parse(wire) as unknown as Record<string, unknown>;
    return { messages: request.messages, tools: request.tools };
  } catch (error) {
    return { invalid: String(error).slice(0, 120) };
  }
};

const ratios: { direction: string; peer: string; ratio: number; correct: boolean }[] = [];
const rows: Measurement[] = [];
const names = Object.keys(codecs) as Name[];

// llm-bridge leaves its input as it is (checked: no direction mutates it), and so do we, so these
// rows time the conversion alone; @musistudio/llms edits its input, so both sides of its row copy.
const requestPair = (from: Name, to: Name) => {
  const ours = codecs[to].request.render(codecs[from].request.parse(requestIn[from]));
  const theirs = bridge.translateBetweenProviders(
    bridgeName[from],
    bridgeName[to],
    fresh(requestIn[from]) as never,
  );
  const correct = isDeepStrictEqual(meaning(to, ours), meaning(to, theirs));
  const direction = `${from} -> ${to} request`;
  const a = measure(
    `interlingua ${direction}`,
    () => {
      sink += codecs[to].request.render(codecs[from].request.parse(requestIn[from])) ? 1 : 0;
    },
    { budgetMs },
  );
  const b = measure(
    `llm-bridge ${direction}${correct ? "" : " (output differs)"}`,
    () => {
      sink += bridge.translateBetweenProviders(
        bridgeName[from],
        bridgeName[to],
        requestIn[from] as never,
      )
        ? 1
        : 0;
    },
    { budgetMs },
  );
  rows.push(a, b);
  ratios.push({ direction, peer: "llm-bridge", ratio: a.opsPerSecond / b.opsPerSecond, correct });
};

for (const from of names) for (const to of names) if (from !== to) requestPair(from, to);

// The small request the issue quotes (chat.request.parse alone).
rows.push(
  measure(
    "interlingua chat.request.parse, small",
    () => {
      sink += chat.request.parse(smallChatRequest).messages.length;
    },
    { budgetMs },
  ),
  measure(
    "interlingua messages.request.render, small",
    () => {
      sink += (
        messages.request.render(chat.request.parse(smallChatRequest)) as { messages: unknown[] }
      ).messages.length;
    },
    { budgetMs },
  ),
);

// --- @musistudio/llms: messages -> chat request, chat -> messages stream -------------------
const peerModule = createRequire(import.meta.url)("@musistudio/llms");
const PeerServer = peerModule.default ?? peerModule;
const peer = new PeerServer({ initialConfig: { providers: [] }, logger: false });
await peer.transformerService.initialize?.();
const peerAnthropic = peer.transformerService.getTransformer("Anthropic");
{
  const from = requestIn.messages;
  const ours = chat.request.render(messages.request.parse(from));
  const theirs = await peerAnthropic.transformRequestOut(fresh(from));
  const correct = isDeepStrictEqual(meaning("chat", ours), meaning("chat", theirs));
  const direction = "messages -> chat request";
  const batch = 20;
  const a = measure(
    `interlingua ${direction}`,
    () => {
      sink += chat.request.render(messages.request.parse(fresh(from))).messages.length;
    },
    { budgetMs },
  );
  const b = await measureAsync(
    `@musistudio/llms ${direction}${correct ? "" : " (output differs)"}`,
    async () => {
      for (let i = 0; i < batch; i++)
        sink += (await peerAnthropic.transformRequestOut(fresh(from))) ? 1 : 0;
    },
    { budgetMs, unitsPerOp: batch },
  );
  rows.push(a, b);
  ratios.push({
    direction,
    peer: "@musistudio/llms",
    ratio: a.opsPerSecond / b.opsPerSecond,
    correct,
  });
}

// --- streams --------------------------------------------------------------------------------
const fixtures = new URL("../../fixtures/", import.meta.url);
function recorded(folder: string, frame: (line: string) => string, end: string): Uint8Array[] {
  const dir = new URL(`${folder}/`, fixtures);
  const encoder = new TextEncoder();
  return readdirSync(dir)
    .filter((f) => f.endsWith(".chunks.txt"))
    .sort()
    .map((f) =>
      encoder.encode(
        readFileSync(new URL(f, dir), "utf8")
          .split("\n")
          .filter((line) => line.trim() !== "")
          .map(frame)
          .join("") + end,
      ),
    );
}
const chatSse = recorded("openai-chat", (l) => `data: ${l}\n\n`, "data: [DONE]\n\n");
const anthropicSse = recorded(
  "anthropic",
  (l) => `event: ${(JSON.parse(l) as { type: string }).type}\ndata: ${l}\n\n`,
  "",
);
const bytesOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(bytes);
      c.close();
    },
  });
async function text(stream: ReadableStream<unknown>): Promise<string> {
  const decoder = new TextDecoder();
  let out = "";
  for await (const chunk of stream)
    out +=
      typeof chunk === "string" ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
  return out;
}
const chained = (from: Codec, to: Codec, bytes: Uint8Array) =>
  bytesOf(bytes)
    .pipeThrough(decodeSse())
    .pipeThrough(from.stream.decode())
    .pipeThrough(to.stream.encode({ providerExtras: { openai: { includeUsage: true } } }))
    .pipeThrough(encodeSse());
const fused = (from: Codec, to: Codec, bytes: Uint8Array) =>
  bytesOf(bytes).pipeThrough(
    translateSse(
      from.stream.decoder(),
      to.stream.encoder({ providerExtras: { openai: { includeUsage: true } } }),
    ),
  );

/** The text content a client reading `to`'s stream would show, by our decoder. */
async function streamedText(to: Codec, sse: string): Promise<string> {
  let out = "";
  const events = bytesOf(new TextEncoder().encode(sse))
    .pipeThrough(decodeSse())
    .pipeThrough(to.stream.decode());
  // Text and tool-call argument deltas, in order: what a client would show and run.
  for await (const event of events as ReadableStream<Record<string, unknown>>) {
    if (event.type === "text-delta" && typeof event.delta === "string") out += event.delta;
    else if (String(event.type).startsWith("tool") && typeof event.delta === "string")
      out += `[${event.delta}]`;
  }
  return out;
}

const streamPeers: [
  string,
  Name,
  Name,
  Uint8Array[],
  (b: Uint8Array) => Promise<ReadableStream>,
][] = [
  [
    "chat -> messages stream",
    "chat",
    "messages",
    chatSse,
    (b) => Promise.resolve(bridge.emitAnthropicStream(bridge.parseOpenAIStream(bytesOf(b)))),
  ],
  [
    "messages -> chat stream",
    "messages",
    "chat",
    anthropicSse,
    (b) => Promise.resolve(bridge.emitOpenAIStream(bridge.parseAnthropicStream(bytesOf(b)))),
  ],
  [
    "chat -> messages stream",
    "chat",
    "messages",
    chatSse,
    async (b) =>
      (
        (await peerAnthropic.transformResponseIn(
          new Response(b, { headers: { "content-type": "text/event-stream" } }),
          { req: { id: "bench" } },
        )) as Response
      ).body!,
  ],
];
const streamRows: Measurement[] = [];
for (const [i, [direction, from, to, list, run]] of streamPeers.entries()) {
  const peerName = i < 2 ? "llm-bridge" : "@musistudio/llms";
  let correct = true;
  let decoded = 0;
  for (const bytes of list) {
    let theirs = "";
    try {
      theirs = await streamedText(codecs[to], await text(await run(bytes)));
    } catch {
      theirs = "<invalid stream>";
    }
    const ours = await streamedText(codecs[to], await text(fused(codecs[from], codecs[to], bytes)));
    if (ours !== theirs) correct = false;
    decoded += ours.length;
  }
  if (decoded === 0) throw new Error(`${direction}: no text decoded, the check proves nothing`);
  const a = await measureAsync(
    `interlingua translateSse ${direction}`,
    async () => {
      for (const b of list) sink += (await text(fused(codecs[from], codecs[to], b))).length;
    },
    { budgetMs, unitsPerOp: list.length },
  );
  const b = await measureAsync(
    `${peerName} ${direction}${correct ? "" : " (output differs)"}`,
    async () => {
      for (const bytes of list) sink += (await text(await run(bytes))).length;
    },
    { budgetMs, unitsPerOp: list.length },
  );
  streamRows.push(a, b);
  ratios.push({ direction, peer: peerName, ratio: a.opsPerSecond / b.opsPerSecond, correct });
}

// --- the README's pipeThrough chain against translateSse -------------------------------------
const chainRows: Measurement[] = [];
for (const [name, from, to, list] of [
  ["chat -> messages", chat, messages, chatSse],
  ["messages -> chat", messages, chat, anthropicSse],
] as const) {
  chainRows.push(
    await measureAsync(
      `pipeThrough chain ${name}`,
      async () => {
        for (const b of list) sink += (await text(chained(from, to, b))).length;
      },
      { budgetMs, unitsPerOp: list.length },
    ),
    await measureAsync(
      `translateSse ${name}`,
      async () => {
        for (const b of list) sink += (await text(fused(from, to, b))).length;
      },
      { budgetMs, unitsPerOp: list.length },
    ),
  );
}

console.log(
  "rates per second of CPU time (bench/src/measure.ts)\n\nrequests (one typical request with a tool call; small = one user message)",
);
report(rows, "requests/s");
console.log("\nstreams (recorded fixtures, one pass)");
report(streamRows, "streams/s");
console.log("\nREADME pipeThrough chain vs translateSse");
report(chainRows, "streams/s");
for (let i = 0; i < chainRows.length; i += 2)
  console.log(
    `ratio chain / translateSse, ${chainRows[i]!.name.replace("pipeThrough chain ", "")}: ${(chainRows[i]!.opsPerSecond / chainRows[i + 1]!.opsPerSecond).toFixed(2)}x`,
  );
console.log("\nratio interlingua / peer (same run; * = peer output differs from ours)");
for (const r of ratios)
  console.log(
    `${r.direction.padEnd(28)} ${r.peer.padEnd(17)} ${r.ratio.toFixed(2)}x${r.correct ? "" : " *"}`,
  );
const range = (peer: string) => {
  const list = ratios.filter((r) => r.peer === peer).map((r) => r.ratio);
  return `${Math.min(...list).toFixed(2)}-${Math.max(...list).toFixed(2)}x`;
};
console.log(
  `peer ratio range: llm-bridge ${range("llm-bridge")}, @musistudio/llms ${range("@musistudio/llms")}`,
);
if (sink === 0) console.log("(sink)");
