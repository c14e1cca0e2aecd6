// The gateway's per-stream stage cost, without HTTP: a simulator reply (fetched once from the
// provider simulator on loopback, in the two chunks a fast upstream's reply reaches the gateway
// in: its first frame, then the rest) through each stage the gateway runs on a committed stream.
// Same format: the usage tap alone (messages -> Anthropic) and the tap re-framing without the usage
// chunk the client did not ask for (chat -> OpenAI); across formats: the translator. Prints
// microseconds per stream, short (about 20 deltas) and long (about 200).
//   cd bench && node src/gateway-stages.bench.ts
import type { PushTransformer, SseMessage, StreamEvent } from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { isChatUsageOnlyChunk } from "@interlingua/fmt-chat/tables";
import { messages } from "@interlingua/fmt-messages";
import { sseFraming } from "@interlingua/sse";
import { watchSse } from "../../apps/gateway/src/stream/observe-sse.ts";
import { passThroughStage } from "../../apps/gateway/src/stream/pass-through-stage.ts";
import { reframeStage } from "../../apps/gateway/src/stream/reframe-stage.ts";
import type { RelayStage } from "../../apps/gateway/src/stream/relay-stage.ts";
import { translateStage } from "../../apps/gateway/src/stream/translate-stage.ts";
import { startProviderSim } from "../../apps/provider-sim/src/index.ts";
import { measure } from "./measure.ts";

const sim = await startProviderSim({ port: 0, record: false });

async function reply(path: string, headers: Record<string, string>, body: unknown) {
  const response = await fetch(`${sim.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const first = bytes.indexOf("\n\n") + 2;
  return { chunks: [bytes.subarray(0, first), bytes.subarray(first)], size: bytes.length };
}

const prompt = (words: number) => `Summarise the benefits of a gateway. [[len:${words}]]`;
const openai = (words: number) =>
  reply(
    "/v1/chat/completions",
    { authorization: "Bearer sim-key" },
    {
      model: "txtA-5",
      stream: true,
      // As the gateway asks an OpenAI upstream, to bill the stream.
      stream_options: { include_usage: true },
      messages: [{ role: "user", content: prompt(words) }],
    },
  );
const anthropic = (words: number) =>
  reply(
    "/v1/messages",
    { "x-api-key": "sim-key", "anthropic-version": "2023-06-01" },
    {
      model: "txtB-sonnet-4-6",
      max_tokens: 4096,
      stream: true,
      messages: [{ role: "user", content: prompt(words) }],
    },
  );

const watch = (format: "chat" | "messages") => {
  const codec = format === "chat" ? chat : messages;
  return watchSse({
    decoder: codec.stream.decoder(),
    onEvent: () => {},
    onDecodeError: (error) => {
      throw error;
    },
    plain: { test: codec.stream.frames!.plain, decoder: () => codec.stream.decoder() },
  });
};
const translate = (
  decoder: PushTransformer<SseMessage, StreamEvent>,
  encoder: PushTransformer<StreamEvent, SseMessage>,
) =>
  translateStage({
    decoder,
    encoder,
    framing: sseFraming,
    onEvent: () => {},
    failed: (error) => {
      throw error;
    },
    fallback: () => [],
  });

const STAGES: {
  name: string;
  upstream: typeof openai;
  stage: () => RelayStage;
}[] = [
  {
    name: "chat -> openai (tap, re-framed without the usage chunk)",
    upstream: openai,
    stage: () =>
      reframeStage(watch("chat"), {
        keep: (message) => !isChatUsageOnlyChunk(message.data),
        framing: "raw",
        failure: () => [],
        frames: chat.stream.frames,
      }),
  },
  {
    name: "messages -> anthropic (tap, bytes through)",
    upstream: anthropic,
    stage: () => passThroughStage(watch("messages"), () => [], messages.stream.frames),
  },
  {
    name: "messages -> openai (translated)",
    upstream: openai,
    stage: () => translate(chat.stream.decoder(), messages.stream.encoder({})),
  },
  {
    name: "chat -> anthropic (translated)",
    upstream: anthropic,
    stage: () =>
      translate(
        messages.stream.decoder(),
        chat.stream.encoder({ providerExtras: { openai: { includeUsage: false } } }),
      ),
  },
];

for (const words of [60, 600]) {
  console.log(`\nreplies of about ${words} words`);
  for (const { name, upstream, stage } of STAGES) {
    const { chunks, size } = await upstream(words);
    const run = () => {
      const relay = stage();
      for (const chunk of chunks) relay.push(chunk);
      relay.end();
    };
    const { opsPerSecond } = measure(name, run);
    console.log(
      `${name.padEnd(56)} ${(1e6 / opsPerSecond).toFixed(1).padStart(7)} µs/stream  (${(size / 1024).toFixed(1)} KB)`,
    );
  }
}
await sim.close();
