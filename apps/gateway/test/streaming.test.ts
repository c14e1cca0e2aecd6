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
