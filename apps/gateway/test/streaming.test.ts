import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, eventually, postJson, type Stack, startStack } from "./stack.ts";
import { parseSse, READ_STREAM, REQUEST } from "./wire.ts";

// Streams are relayed frame by frame: the first frame reaches the client long before the last
// one exists, and an idle stream carries keep-alive comments.
describe("streaming", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({}, { keepAliveMs: 30 });
  });
  afterAll(() => stack.close());

  const timed = async (path: string, body: unknown) => {
    const started = performance.now();
    const res = await fetch(stack.gateway.url + path, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let firstAt: number | undefined;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      firstAt ??= performance.now() - started;
      text += decoder.decode(value, { stream: true });
    }
    return { text, firstAt: firstAt!, endAt: performance.now() - started };
  };

  const cases = [
    { name: "same format (messages -> anthropic)", client: "messages", model: "txtB-sonnet-4-6" },
    { name: "cross format (chat -> gemini)", client: "chat", model: "txtC-2.5-pro" },
  ] as const;

  for (const { name, client, model } of cases) {
    it(`${name}: not buffered, with keep-alives while the upstream is silent`, async () => {
      const { path, body } = REQUEST[client]({
        model,
        text: "[[fault:chunk-delay=80]] [[len:20]] slow",
        stream: true,
      });
      const { text, firstAt, endAt } = await timed(path, body);
      expect(endAt - firstAt).toBeGreaterThan(200);
      expect(text).toContain(": keep-alive\n\n");
      expect(READ_STREAM[client](parseSse(text)).text.split(" ").length).toBe(20);
    });
  }

  // Gemini CLI's bundled SDK matches `data:` lines only: a comment stalls its parser, and the
  // stream then fails as "Incomplete JSON segment at the end".
  it.each(["txtC-2.5-pro", "txtB-sonnet-4-6"])(
    "a native SSE stream (%s) carries no comment while the upstream is silent",
    async (model) => {
      const { path, body } = REQUEST.native({
        model,
        text: "[[fault:chunk-delay=80]] [[len:20]] slow",
        stream: true,
      });
      const { text, firstAt, endAt } = await timed(path, body);
      expect(endAt - firstAt).toBeGreaterThan(200);
      expect(text.split("\n").filter((line) => line.startsWith(":"))).toEqual([]);
      expect(READ_STREAM.native(parseSse(text)).text.split(" ").length).toBe(20);
    },
  );

  it("a relayed stream carries its content type, no-cache, no proxy buffering and the request id", async () => {
    const { path, body } = REQUEST.chat({ model: "txtA-5", text: "headers", stream: true });
    const res = await postJson(stack.gateway.url + path, body);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const array = await postJson(
      `${stack.gateway.url}/v1beta/models/txtC-2.5-pro:streamGenerateContent`,
      { contents: [{ role: "user", parts: [{ text: "headers" }] }] },
    );
    expect(array.json).toBeInstanceOf(Array);
    expect(array.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(array.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("the tap reads usage off a same-format stream for the request log, without touching the bytes", async () => {
    const { path, body } = REQUEST.messages({
      model: "txtB-sonnet-4-6",
      text: "tap me",
      stream: true,
    });
    const res = await postJson(stack.gateway.url + path, body);
    const requestId = res.headers.get("x-request-id");
    expect(requestId).toMatch(/^req_/);
    expect(res.text).toMatch(/^event: message_start\n/);
    const line = () =>
      stack.logs().find((l) => l["requestId"] === requestId && l["msg"] === "stream completed");
    await eventually(() => line() !== undefined);
    expect(line()).toMatchObject({
      sameFormat: true,
      complete: true,
      clientDisconnected: false,
      finishReason: "stop",
      usage: { outputTokens: expect.any(Number), inputTokens: expect.any(Number) },
    });
  });
});

// An Anthropic upstream that sends fixed bytes in awkward pieces: CRLF framing, a comment, an
// unknown event and field, a multi-byte character split across writes.
const ODD_STREAM = [
  'event: message_start\r\ndata: {"type":"message_start","message":{"id":"m1","type":"message","role":"assistant","model":"x","content":[],"usage":{"input_tokens":7,"output_tokens":1},"future":1}}\r\n\r\n: note\r\n\r\nevent: content_block_start\r\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\r\n\r\nevent: content_block_delta\r\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"h',
  "\u00e9",
  'llo"}}\r\n\r\nevent: vendor_extra\r\ndata: {"type":"vendor_extra"}\r\n\r\nevent: content_block_stop\r\ndata: {"type":"content_block_stop","index":0}\r\n\r',
  '\nevent: message_delta\r\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}\r\n\r\nevent: message_stop\r\ndata: {"type":"message_stop"}\r\n\r\n',
];

describe("same-format streams are relayed byte for byte", () => {
  let stack: Stack;
  let upstream: ReturnType<typeof createServer>;
  beforeAll(async () => {
    const bytes = Buffer.from(ODD_STREAM.join(""), "utf8");
    // Cut inside the two-byte é as well as between the pieces above.
    const cutAt = bytes.indexOf(Buffer.from("\u00e9")) + 1;
    upstream = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(bytes.subarray(0, cutAt));
      setTimeout(() => res.end(bytes.subarray(cutAt)), 20);
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    stack = await startStack({
      channels: [
        {
          name: "odd",
          protocol: "anthropic",
          base_url: url,
          api_key: "k",
          models: ["txtB-sonnet-4-6"],
        },
      ],
    });
  });
  afterAll(async () => {
    await stack.close();
    await new Promise((r) => upstream.close(r));
  });

  it("the client reads exactly the upstream's bytes, and the tap still finds usage and finish", async () => {
    const { path, body } = REQUEST.messages({ model: "txtB-sonnet-4-6", text: "hi", stream: true });
    const res = await fetch(stack.gateway.url + path, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    const received = Buffer.from(await res.arrayBuffer());
    // Byte for byte, but for the model's name: the client's, not the upstream's ("x").
    const expected = ODD_STREAM.join("").replace('"model":"x"', '"model":"txtB-sonnet-4-6"');
    expect(received.toString("utf8")).toBe(expected);
    expect(res.headers.get("x-interlingua-upstream-model")).toBe("txtB-sonnet-4-6");
    const requestId = res.headers.get("x-request-id");
    const line = () =>
      stack.logs().find((l) => l["requestId"] === requestId && l["msg"] === "stream completed");
    await eventually(() => line() !== undefined);
    expect(line()).toMatchObject({
      complete: true,
      finishReason: "stop",
      usage: { inputTokens: 7, outputTokens: 3 },
    });
  });
});
