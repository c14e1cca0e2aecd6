import { startProviderSim } from "@interlingua/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auth,
  eventually,
  KEY,
  postJson,
  type Sim,
  type Stack,
  simChannels,
  startStack,
  UPSTREAM_KEY,
} from "./stack.ts";
import { parseSse, READ_STREAM, REQUEST } from "./wire.ts";

const chat = (model: string, text: string, stream = false) => REQUEST.chat({ model, text, stream });
const completed = (stack: Stack) =>
  stack.logs().filter((l) => l["msg"] === "request completed" || l["msg"] === "stream completed");
const attemptsOf = (line: Record<string, unknown>) =>
  (line["attempts"] as { channel: string; outcome: string }[]).map(
    (a) => `${a.channel}:${a.outcome}`,
  );
const failed = (stack: Stack) => stack.logs().filter((l) => l["msg"] === "request failed");

describe("upstream faults", () => {
  let stack: Stack;
  let broken: Sim;
  beforeAll(async () => {
    // A second simulator that fails every request, and a port where nothing listens.
    broken = await startProviderSim({ port: 0, fault: "status=503" });
    const ok = await startProviderSim({ port: 0, keys: [UPSTREAM_KEY] });
    const refused = await startProviderSim({ port: 0 });
    await refused.close();
    stack = await startStack(
      {
        channels: [
          ...simChannels(ok.url),
          {
            name: "broken",
            protocol: "openai",
            base_url: broken.url,
            api_key: UPSTREAM_KEY,
            models: ["txtD-v3-0324"],
            priority: 0,
          },
          {
            name: "nobody",
            protocol: "openai",
            base_url: refused.url,
            api_key: UPSTREAM_KEY,
            models: ["txtD-v4-pro"],
            priority: 0,
          },
          {
            name: "backup-an",
            protocol: "anthropic",
            base_url: ok.url,
            api_key: UPSTREAM_KEY,
            models: ["txtD-v3-0324", "txtD-v4-pro"],
            priority: 1,
          },
          {
            name: "first",
            protocol: "openai",
            base_url: ok.url,
            api_key: UPSTREAM_KEY,
            models: ["txtD-v3.2-exp"],
            priority: 0,
          },
          {
            name: "second",
            protocol: "gemini",
            base_url: ok.url,
            api_key: UPSTREAM_KEY,
            models: ["txtD-v3.2-exp"],
            priority: 1,
          },
        ],
      },
      {
        // Prompt faults on shared channels must not open their circuits for the next test.
        breaker: { failureThreshold: 1000, cooldownMs: 60_000 },
        timeouts: { headersMs: 400, bodyMs: 400, connectMs: 400 },
      },
    );
    const close = stack.close;
    stack.close = async () => {
      await close();
      await ok.close();
      await broken.close();
    };
  });
  afterAll(() => stack.close());
  const url = (path: string) => stack.gateway.url + path;

  it("upstream 429 becomes 429 in each envelope, with Retry-After", async () => {
    const { path, body } = chat("txtA-5", "[[fault:status=429,retry-after=7]] hi");
    const res = await postJson(url(path), body);
    expect(res.status).toBe(429);
    expect(res.json.error).toMatchObject({ code: 429, type: "rate_limit_error" });
    expect(res.headers.get("retry-after")).toBe("7");
    const native = await postJson(url("/v1beta/models/txtC-2.5-pro:generateContent"), {
      contents: [{ role: "user", parts: [{ text: "[[fault:status=429]] hi" }] }],
    });
    expect(native.status).toBe(429);
    expect(native.json.error.status).toBe("RESOURCE_EXHAUSTED");
    const messages = await postJson(
      url("/v1/messages"),
      REQUEST.messages({ model: "txtB-sonnet-4-6", text: "[[fault:status=429]]", stream: false })
        .body,
    );
    expect(messages.status).toBe(429);
    expect(messages.json).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
  });

  it("upstream 500 becomes 502 bad_gateway without upstream secrets", async () => {
    const { path, body } = chat("txtA-5", "[[fault:status=500]] hi");
    const res = await postJson(url(path), body);
    expect(res.status).toBe(502);
    expect(res.json.error).toMatchObject({ code: 502, type: "bad_gateway" });
    expect(res.text).not.toContain(UPSTREAM_KEY);
    expect(res.text).not.toMatch(/at \w+ \(/);
  });

  it("an upstream 400 is the client's error and is not retried elsewhere", async () => {
    const res = await postJson(url("/v1/messages"), {
      model: "txtB-sonnet-4-6",
      max_tokens: 16,
      messages: [{ role: "user", content: "[[fault:status=400]] hi" }],
    });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe("invalid_request_error");
  });

  it("falls back to the next channel on a 5xx", async () => {
    const { path, body } = chat("txtD-v3-0324", "fallback");
    const res = await postJson(url(path), body);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.choices[0].message.content).toBe("echo: fallback");
    await eventually(() => completed(stack).some((l) => l["model"] === "txtD-v3-0324"));
    const line = completed(stack).find((l) => l["model"] === "txtD-v3-0324")!;
    expect(attemptsOf(line)).toEqual(["broken:status", "backup-an:ok"]);
  });

  it("falls back on a refused connection", async () => {
    const { path, body } = chat("txtD-v4-pro", "refused");
    const res = await postJson(url(path), body);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.choices[0].message.content).toBe("echo: refused");
  });

  it("a reset before the first byte falls back to the next channel", async () => {
    const { path, body } = chat("txtD-v3.2-exp", "[[fault:reset-after=0,times=1]] retry me", true);
    const res = await postJson(url(path), body);
    expect(res.status, res.text).toBe(200);
    expect(READ_STREAM.chat(parseSse(res.text)).text).toBe("echo: retry me");
    await eventually(() => completed(stack).some((l) => l["model"] === "txtD-v3.2-exp"));
    const line = completed(stack).find((l) => l["model"] === "txtD-v3.2-exp")!;
    expect(
      (line["attempts"] as { channel: string; outcome: string }[]).map(
        (a) => `${a.channel}:${a.outcome}`,
      ),
    ).toEqual(["first:connection", "second:ok"]);
  });

  it("a reset before the first byte with no other channel is a 502 in the envelope", async () => {
    const { path, body } = chat("txtA-5", "[[fault:reset-after=0]] no luck", true);
    const res = await postJson(url(path), body);
    expect(res.status).toBe(502);
    expect(res.json.error.type).toBe("bad_gateway");
  });

  it("a connection closed before any answer, on the last channel, is tried once more", async () => {
    // As an upstream closes a pooled keep-alive connection just as a call goes out on it.
    const { path, body } = chat("txtA-5", "[[fault:reset-after=0,times=1]] once more");
    const res = await postJson(url(path), body);
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.choices[0].message.content).toBe("echo: once more");
    const requestId = res.headers.get("x-request-id");
    await eventually(() => completed(stack).some((l) => l["requestId"] === requestId));
    const line = completed(stack).find((l) => l["requestId"] === requestId)!;
    expect(attemptsOf(line)).toEqual(["oa:connection", "oa:ok"]);
  });

  it("a reset mid-stream ends the client's stream with an error event (cross-format)", async () => {
    const { path, body } = chat("txtB-sonnet-4-6", "[[fault:reset-after=3]] [[len:40]]", true);
    const res = await postJson(url(path), body);
    expect(res.status).toBe(200);
    const frames = parseSse(res.text);
    const last = JSON.parse(
      frames.at(-1)!.data === "[DONE]" ? frames.at(-2)!.data : frames.at(-1)!.data,
    );
    expect(last.error).toMatchObject({ type: "bad_gateway" });
  });

  it("a reset mid-stream ends the client's stream with an error event (same format)", async () => {
    const { path, body } = REQUEST.messages({
      model: "txtB-sonnet-4-6",
      text: "[[fault:reset-after=3]] [[len:40]]",
      stream: true,
    });
    const res = await postJson(url(path), body);
    expect(res.status).toBe(200);
    const frames = parseSse(res.text);
    expect(frames.at(-1)?.event).toBe("error");
    expect(JSON.parse(frames.at(-1)!.data)).toMatchObject({
      type: "error",
      error: { type: "api_error" },
    });
  });

  it("malformed upstream SSE becomes an error event across formats", async () => {
    const { path, body } = REQUEST.native({
      model: "txtA-5",
      text: "[[fault:malformed=2]] hi",
      stream: true,
    });
    const res = await postJson(url(path), body);
    expect(res.status).toBe(200);
    // The codec reports the bad chunk in-stream and reads on: text and usage still arrive.
    const chunks = parseSse(res.text).map((f) => JSON.parse(f.data));
    expect(chunks.find((c) => c.error)?.error).toMatchObject({ code: 502, status: "BAD_GATEWAY" });
    expect(chunks.some((c) => c.usageMetadata)).toBe(true);
  });

  it("a hanging upstream times out as 502", async () => {
    const { path, body } = chat("txtA-5", "[[fault:hang]] hi");
    const res = await postJson(url(path), body);
    expect(res.status).toBe(502);
    expect(res.json.error).toMatchObject({
      code: 502,
      type: "bad_gateway",
      message: "upstream timed out",
    });
  });

  it("a client that disconnects mid-stream: the upstream is read to its final usage and logged", async () => {
    const { path, body } = REQUEST.messages({
      model: "txtB-sonnet-4-6",
      text: "[[fault:chunk-delay=5]] [[len:60]] bye",
      stream: true,
    });
    const controller = new AbortController();
    const res = await fetch(url(path), {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await eventually(() => completed(stack).some((l) => l["clientDisconnected"] === true));
    const line = completed(stack).find((l) => l["clientDisconnected"] === true)!;
    expect(line).toMatchObject({ complete: true, usage: { outputTokens: expect.any(Number) } });
    expect((line["usage"] as { outputTokens: number }).outputTokens).toBeGreaterThan(50);
  });

  it("logs each failed request with its attempts", async () => {
    await eventually(() => failed(stack).length > 0);
    expect(failed(stack)[0]).toMatchObject({
      status: expect.any(Number),
      attempts: expect.any(Array),
    });
  });

  it("a stream read by the client to the end reads the same as READ_STREAM expects", async () => {
    const { path, body } = REQUEST.chat({ model: "txtA-5", text: "ok", stream: true });
    const res = await postJson(url(path), body);
    expect(READ_STREAM.chat(parseSse(res.text)).text).toBe("echo: ok");
  });
});

describe("circuit breaker", () => {
  // Per (channel, model), opened only by failures from two callers or more, and only by
  // failures that mean the channel is unhealthy.
  const OTHER = "sk-test-breaker-bob";
  let stack: Stack;
  let broken: Sim;
  beforeAll(async () => {
    broken = await startProviderSim({ port: 0, fault: "status=500" });
    stack = await startStack(
      {
        users: [
          { id: "alice", quota: 1_000_000_000_000 },
          { id: "bob", quota: 1_000_000_000_000 },
        ],
        tokens: [
          { key: KEY, user: "alice", unlimited: true },
          { key: OTHER, user: "bob", unlimited: true },
        ],
        extraChannels: () => [
          {
            name: "broken",
            protocol: "openai",
            base_url: broken.url,
            api_key: UPSTREAM_KEY,
            models: ["txtA-5", "txtD-v3.2"],
            priority: -1,
          },
        ],
      },
      { breaker: { failureThreshold: 2, cooldownMs: 60_000 } },
    );
  });
  afterAll(async () => {
    await stack.close();
    await broken.close();
  });

  const send = async (model: string, text: string, key: string) => {
    const { path, body } = chat(model, text);
    const res = await postJson(stack.gateway.url + path, body, auth(key));
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.choices[0].message.content).toBe(`echo: ${text}`);
  };

  it("one caller's failures alone never open it; a second caller's do, for that model only", async () => {
    for (let i = 0; i < 3; i++) await send("txtA-5", `alone ${i}`, KEY);
    await eventually(() => completed(stack).length === 3);
    // Three failures, one caller: still tried every time (and fallen back from).
    expect(completed(stack).map(attemptsOf)).toEqual([
      ["broken:status", "oa:ok"],
      ["broken:status", "oa:ok"],
      ["broken:status", "oa:ok"],
    ]);
    await send("txtA-5", "second caller", OTHER);
    await send("txtA-5", "after", KEY);
    // Another model on the same channel still goes there first.
    await send("txtD-v3.2", "other model", KEY);
    await eventually(() => completed(stack).length === 6);
    expect(completed(stack).slice(3).map(attemptsOf)).toEqual([
      ["broken:status", "oa:ok"],
      ["oa:ok"],
      ["broken:status", "oa:ok"],
    ]);
  });
});
