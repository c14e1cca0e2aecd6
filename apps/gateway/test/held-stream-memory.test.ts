import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCRIPTED_KEY, sse } from "./scripted-upstream.ts";
import { KEY, type Stack, startStack } from "./stack.ts";

// A held stream costs what its relay needs, not its request: with thousands open (issue 30's
// 5,000 streams on one channel), a prompt kept per stream is most of the gateway's memory.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Heap in use after full collections: what is still reachable. */
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

/** A chat chunk with `choices`. */
const chunk = (choices: unknown[]) => ({
  id: "chatcmpl-held",
  object: "chat.completion.chunk",
  created: 1,
  model: "txtA-5",
  choices,
});

describe("a stream held open", () => {
  // The upstream reads each request to its end, keeping nothing of it, answers its first chunk
  // and holds the stream until the test lets it go.
  const held: ServerResponse[] = [];
  const upstream = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(
        sse([
          chunk([{ index: 0, delta: { role: "assistant", content: "Hi" }, finish_reason: null }]),
        ]),
      );
      held.push(res);
    });
  });
  const release = () => {
    for (const res of held.splice(0))
      res.end(sse([chunk([{ index: 0, delta: {}, finish_reason: "stop" }]), "[DONE]"]));
  };
  let stack: Stack;
  beforeAll(async () => {
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const { port } = upstream.address() as AddressInfo;
    stack = await startStack(
      {
        channels: [
          {
            name: "held",
            protocol: "openai",
            base_url: `http://127.0.0.1:${port}`,
            api_key: SCRIPTED_KEY,
            models: ["txtA-5"],
          },
        ],
      },
      // The streams stay silent while the others open: on a busy machine, longer than 2 s.
      { timeouts: { headersMs: 30_000, bodyMs: 60_000, connectMs: 5000 } },
    );
  });
  afterAll(async () => {
    release();
    await stack.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const PROMPT_BYTES = 2 * 1024 * 1024;
  /** The client routes: chat to a chat upstream as it is, and messages translated to it. */
  const ROUTES = {
    "chat, same format": {
      path: "/v1/chat/completions",
      body: (prompt: string) => ({ stream: true, messages: [{ role: "user", content: prompt }] }),
      first: '"content":"Hi"',
      last: "data: [DONE]",
    },
    "messages, translated": {
      path: "/v1/messages",
      body: (prompt: string) => ({
        stream: true,
        max_tokens: 64,
        messages: [{ role: "user", content: prompt }],
      }),
      first: "message_start",
      last: "message_stop",
    },
    "responses, translated and stored": {
      path: "/v1/responses",
      body: (prompt: string) => ({ stream: true, input: prompt }),
      first: "response.created",
      last: "response.completed",
    },
  };
  type Route = (typeof ROUTES)[keyof typeof ROUTES];

  /** Opens a stream with a prompt of PROMPT_BYTES, sent as bytes (outside the JS heap). */
  const open = async (route: Route, seed: number) => {
    const prompt = `${seed} `.padEnd(PROMPT_BYTES, "lorem ipsum ");
    const body = Buffer.from(JSON.stringify({ model: "txtA-5", ...route.body(prompt) }));
    const res = await fetch(`${stack.gateway.url}${route.path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain(route.first);
    return reader;
  };
  const readToEnd = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
    let text = "";
    for (let next = await reader.read(); !next.done; next = await reader.read())
      text += new TextDecoder().decode(next.value);
    return text;
  };

  it.each(Object.entries(ROUTES))(
    "keeps nothing of its prompt while it runs: %s",
    async (_, route) => {
      const STREAMS = 4;
      const hold = async (first: number) => {
        const readers = [];
        for (let i = first; i < first + STREAMS; i++) readers.push(await open(route, i));
        return readers;
      };
      const finish = async (readers: ReadableStreamDefaultReader<Uint8Array>[]) => {
        release();
        for (const reader of readers) expect(await readToEnd(reader)).toContain(route.last);
      };
      // The same streams once before the reading, so the code on their path is compiled already:
      // V8's code and feedback live on the heap too.
      await finish(await hold(0));
      const before = heapUsed();
      const readers = await hold(STREAMS);
      const perStream = (heapUsed() - before) / STREAMS;
      // A prompt kept as the parsed body, its canonical form or the upstream body's text would be
      // PROMPT_BYTES or more per stream; the relay itself is tens of kilobytes, and the margin
      // takes what the rest of the worker allocates meanwhile.
      expect(perStream, `${Math.round(perStream / 1024)} KiB held per stream`).toBeLessThan(
        PROMPT_BYTES / 2,
      );
      await finish(readers);
    },
  );
});
