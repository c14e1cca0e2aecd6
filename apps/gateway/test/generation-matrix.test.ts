import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack } from "./stack.ts";
import {
  type ClientFormat,
  type Json,
  parseSse,
  READ_BODY,
  READ_STREAM,
  REQUEST,
  STREAM_HAS_USAGE,
  WRAPPED,
} from "./wire.ts";

// Every client format against every upstream protocol, stream and not: the reply a client reads
// is the simulator's deterministic answer, whichever conversion happened in between.
const CLIENTS: ClientFormat[] = ["chat", "responses", "messages", "native"];
const UPSTREAMS = [
  // OpenAI's own models only count their reasoning; a DeepSeek-style reasoner returns it.
  { protocol: "openai", model: "txtA-5", thinkingModel: "txtD-r1-250528" },
  { protocol: "anthropic", model: "txtB-sonnet-4-6", thinkingModel: "txtB-sonnet-4-6" },
  { protocol: "gemini", model: "txtC-2.5-pro", thinkingModel: "txtC-2.5-pro" },
] as const;

describe("generation: every endpoint x every upstream protocol", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const call = async (client: ClientFormat, ask: Parameters<(typeof REQUEST)["chat"]>[0]) => {
    const { path, body } = REQUEST[client](ask);
    return postJson(stack.gateway.url + path, body, auth());
  };
  const unwrap = (client: ClientFormat, json: Json) => {
    if (!WRAPPED[client]) return json;
    expect(json.code).toBe(200);
    return json.data;
  };

  for (const client of CLIENTS) {
    for (const { protocol, model, thinkingModel } of UPSTREAMS) {
      describe(`${client} client -> ${protocol} upstream`, () => {
        it("non-stream text", async () => {
          const res = await call(client, { model, text: "hello there", stream: false });
          expect(res.status, res.text).toBe(200);
          expect(READ_BODY[client](unwrap(client, res.json)).text).toBe("echo: hello there");
        });

        it("stream text with usage", async () => {
          const res = await call(client, { model, text: "hello stream", stream: true });
          expect(res.status, res.text).toBe(200);
          expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
          const frames = parseSse(res.text);
          expect(READ_STREAM[client](frames).text).toBe("echo: hello stream");
          if (client !== "chat") expect(STREAM_HAS_USAGE[client](frames)).toBe(true);
        });

        it("non-stream tool call", async () => {
          const res = await call(client, {
            model,
            text: "weather? [[tool]]",
            stream: false,
            tools: true,
          });
          expect(res.status, res.text).toBe(200);
          expect(READ_BODY[client](unwrap(client, res.json)).toolNames).toEqual(["get_weather"]);
        });

        it("stream tool call", async () => {
          const res = await call(client, {
            model,
            text: "weather? [[tool]]",
            stream: true,
            tools: true,
          });
          expect(res.status, res.text).toBe(200);
          expect(READ_STREAM[client](parseSse(res.text)).toolNames).toEqual(["get_weather"]);
        });

        if (client !== "responses") {
          // [[think]] makes the simulated upstream show its thinking where the protocol can
          // return it at all; this tests that thinking crosses the gateway intact.
          it("thinking, stream and not", async () => {
            const plain = await call(client, {
              model: thinkingModel,
              text: "ponder [[think]]",
              stream: false,
              thinking: true,
            });
            expect(plain.status, plain.text).toBe(200);
            const reading = READ_BODY[client](unwrap(client, plain.json));
            expect(reading.thinking).toBe("thinking about: ponder");
            expect(reading.text).toBe("echo: ponder");
            const streamed = await call(client, {
              model: thinkingModel,
              text: "ponder [[think]]",
              stream: true,
              thinking: true,
            });
            expect(streamed.status, streamed.text).toBe(200);
            expect(READ_STREAM[client](parseSse(streamed.text)).thinking).toBe(
              "thinking about: ponder",
            );
          });
        }
      });
    }
  }

  it("a chat stream carries usage only when the client asked for it", async () => {
    for (const model of ["txtA-5", "txtB-sonnet-4-6"]) {
      const { path, body } = REQUEST.chat({ model, text: "u", stream: true });
      const without = await postJson(stack.gateway.url + path, body);
      expect(STREAM_HAS_USAGE.chat(parseSse(without.text)), model).toBe(false);
      const withUsage = await postJson(stack.gateway.url + path, {
        ...body,
        stream_options: { include_usage: true },
      });
      expect(STREAM_HAS_USAGE.chat(parseSse(withUsage.text)), model).toBe(true);
    }
  });

  it("native streamGenerateContent without alt=sse streams a JSON array", async () => {
    for (const model of ["txtC-2.5-pro", "txtA-5"]) {
      const res = await postJson(
        `${stack.gateway.url}/v1beta/models/${model}:streamGenerateContent`,
        {
          contents: [{ role: "user", parts: [{ text: "array please" }] }],
        },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const chunks = JSON.parse(res.text) as Json[];
      expect(Array.isArray(chunks)).toBe(true);
      const text = chunks
        .flatMap((c) => c.candidates?.[0]?.content?.parts ?? [])
        .map((p: Json) => p.text ?? "")
        .join("");
      expect(text, model).toBe("echo: array please");
    }
  });

  it("an aliased model reaches its channel under the upstream id of the map", async () => {
    const before = stack.sim.requests.length;
    const res = await call("messages", { model: "txtB-opus-4-8", text: "mapped", stream: false });
    expect(res.status, res.text).toBe(200);
    const sent = stack.sim.requests.slice(before).find((r) => r.path === "/v1/messages");
    expect((sent?.body as Json)?.model).toBe("claude-upstream-name");
  });

  it("sends each upstream its real auth header (the simulator only accepts the channel key) and the anthropic version", async () => {
    const before = stack.sim.requests.length;
    await call("chat", { model: "txtA-5", text: "a", stream: false });
    await call("chat", { model: "txtB-sonnet-4-6", text: "b", stream: false });
    await call("chat", { model: "txtC-2.5-pro", text: "c", stream: false });
    await postJson(
      `${stack.gateway.url}/v1/messages`,
      REQUEST.messages({ model: "txtB-sonnet-4-6", text: "d", stream: false }).body,
      { ...auth(), "anthropic-version": "2024-01-01" },
    );
    const sent = stack.sim.requests.slice(before);
    const byPath = (p: string) => sent.filter((r) => r.path.startsWith(p));
    expect(byPath("/v1/chat/completions")[0]?.headers["authorization"]).toBe("[redacted]");
    const anthropic = byPath("/v1/messages");
    expect(anthropic.map((r) => [r.headers["x-api-key"], r.headers["anthropic-version"]])).toEqual([
      ["[redacted]", "2023-06-01"],
      ["[redacted]", "2024-01-01"],
    ]);
    expect(
      byPath("/v1beta/models/txtC-2.5-pro:generateContent")[0]?.headers["x-goog-api-key"],
    ).toBe("[redacted]");
  });
});
