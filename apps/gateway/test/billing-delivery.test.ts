import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCallAccount } from "../src/billing/call-account.ts";
import { ENDPOINTS } from "../src/contract/endpoints.ts";
import { requestLog } from "../src/log/request-log.ts";
import type { GenerationRequest } from "../src/pipeline/generation-request.ts";
import type { UsageLogRow } from "../src/storage/store.ts";
import { CLIENT_PROTOCOLS } from "../src/upstream/protocols.ts";
import { auth, postJson, type Stack, startStack, tokenRow } from "./stack.ts";
import { loggedRowOf } from "./usage-rows.ts";
import { type Json, parseSse } from "./wire.ts";

// Quota is charged exactly once, for what the upstream delivered: its reported usage, or, when
// it delivered without one (a reply with no usage, a stream cut or drained past its bound before
// its usage frame), an estimate: the prompt at four characters a token plus the delivered text
// at four characters a token, logged as estimated. A call whose lease was reclaimed still settles.

// txtA-5 and txtA-5.1 (USD per 1M tokens x 500000 credits per USD, per token): input 0.625, output 5.
const credits = (prompt: number, completion: number) => Math.ceil(prompt * 0.625 + completion * 5);
const tokens = (chars: number) => Math.ceil(chars / 4);

const KEY = "sk-delivery";
const REPLY = "x".repeat(400);

/**
 * An OpenAI-protocol upstream that never reports usage: a chat completion without `usage`, or a
 * stream without the usage chunk the gateway asks for. A prompt containing "unreadable" gets a
 * 200 JSON body that is no chat completion at all.
 */
async function startUsagelessUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as Json;
      const base = { id: "chatcmpl-1", created: 1, model: body.model };
      if (JSON.stringify(body.messages).includes("unreadable")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ unexpected: REPLY }));
        return;
      }
      if (body.stream !== true) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            ...base,
            object: "chat.completion",
            choices: [
              { index: 0, message: { role: "assistant", content: REPLY }, finish_reason: "stop" },
            ],
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (delta: Json, finish: string | null = null) =>
        `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      // "many" asks for the reply in 40 deltas (past the tap's decoded sample), else 4.
      const size = JSON.stringify(body.messages).includes("many") ? 10 : 100;
      let out = chunk({ role: "assistant", content: "" });
      for (let i = 0; i < REPLY.length / size; i++) {
        out += chunk({ content: REPLY.slice(i * size, (i + 1) * size) });
      }
      res.end(`${out}${chunk({}, "stop")}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

let stack: Stack;
let upstream: Awaited<ReturnType<typeof startUsagelessUpstream>>;
const url = (path: string) => `${stack.gateway.url}${path}`;

/** The usage row of one request, once written. */
const rowOf = (s: Stack, requestId: string | null): Promise<UsageLogRow> =>
  loggedRowOf(s, requestId);

/** Calls `send`, then checks its row and the token's charge against `expected` credits. */
async function charged(
  send: () => Promise<{ status: number; headers: Headers }>,
  expected: { prompt: number; completion: number; estimated: boolean; status?: number },
) {
  const before = await tokenRow(stack, KEY);
  const res = await send();
  expect(res.status).toBe(200);
  const row = await rowOf(stack, res.headers.get("x-request-id"));
  const cost = credits(expected.prompt, expected.completion);
  expect(row).toMatchObject({
    promptTokens: expected.prompt,
    completionTokens: expected.completion,
    credits: cost,
    // A stream cut by the upstream logs the status of the error event it ended with.
    status: expected.status ?? 200,
  });
  expect(row.estimated === true).toBe(expected.estimated);
  const after = await tokenRow(stack, KEY);
  expect(after.used - before.used).toBe(cost);
  expect(after.reserved).toBe(0);
  return row;
}

beforeAll(async () => {
  upstream = await startUsagelessUpstream();
  stack = await startStack({
    users: [{ id: "alice", quota: 1_000_000_000 }],
    tokens: [{ key: KEY, user: "alice", quota: 100_000_000, name: "delivery" }],
    extraChannels: () => [
      {
        name: "usageless",
        protocol: "openai",
        base_url: upstream.url,
        api_key: "k",
        models: ["txtA-5.1"],
      },
    ],
  });
});
afterAll(async () => {
  await stack?.close();
  await upstream?.close();
});

const ask = (content: string, extra: Record<string, unknown> = {}) => ({
  model: "txtA-5.1",
  messages: [{ role: "user", content }],
  max_tokens: 500,
  ...extra,
});

describe("an upstream that delivers without usage is charged an estimate, not refunded", () => {
  it("a non-stream reply, same format: prompt and delivered text at four characters a token", async () => {
    const row = await charged(
      async () => {
        const res = await postJson(url("/v1/chat/completions"), ask("hello there"), auth(KEY));
        expect(res.json.data.choices[0].message.content).toBe(REPLY);
        return res;
      },
      { prompt: tokens("hello there".length), completion: tokens(REPLY.length), estimated: true },
    );
    expect(stack.logs().some((l) => l["msg"]?.toString().startsWith("usage estimated"))).toBe(true);
    expect(row.channel).toBe("usageless");
    const logs = await (
      await fetch(url("/api/log/self?page_size=100&model_name=txtA-5.1"), { headers: auth(KEY) })
    ).json();
    const shown = logs.data.items.find((i: Json) => i.request_id === row.requestId);
    expect(shown).toMatchObject({ estimated: true, quota: row.credits, completion_tokens: 100 });
  });

  it("a non-stream reply across formats (messages client)", async () => {
    await charged(
      () =>
        postJson(url("/v1/messages"), ask("hello there"), {
          "x-api-key": KEY,
          "anthropic-version": "2023-06-01",
        }),
      { prompt: tokens("hello there".length), completion: tokens(REPLY.length), estimated: true },
    );
  });

  it("a 200 body the gateway cannot read counts the text in it as output, not its JSON", async () => {
    await charged(() => postJson(url("/v1/chat/completions"), ask("unreadable"), auth(KEY)), {
      prompt: tokens("unreadable".length),
      completion: tokens(REPLY.length),
      estimated: true,
    });
  });

  it("a stream that ends without its usage frame", async () => {
    await charged(
      async () => {
        const res = await postJson(
          url("/v1/chat/completions"),
          ask("hello there", { stream: true }),
          auth(KEY),
        );
        expect(res.text).toContain(REPLY.slice(0, 100));
        return res;
      },
      { prompt: tokens("hello there".length), completion: tokens(REPLY.length), estimated: true },
    );
  });

  it("a long stream without usage: deltas past the tap's sample count at the sampled size", async () => {
    await charged(
      async () => {
        const res = await postJson(
          url("/v1/chat/completions"),
          ask("many deltas", { stream: true }),
          auth(KEY),
        );
        expect(parseSse(res.text).length).toBeGreaterThan(40);
        return res;
      },
      { prompt: tokens("many deltas".length), completion: tokens(REPLY.length), estimated: true },
    );
  });

  it("a stream cut before its usage arrived: the prompt estimate plus the text that went by", async () => {
    const prompt = "[[fault:reset-after=4]] [[len:80]] cut me";
    let seen = "";
    await charged(
      async () => {
        const res = await postJson(
          url("/v1/chat/completions"),
          { model: "txtA-5", messages: [{ role: "user", content: prompt }], stream: true },
          auth(KEY),
        );
        for (const frame of parseSse(res.text)) {
          if (frame.data === "[DONE]") continue;
          const chunk = JSON.parse(frame.data);
          seen += chunk.choices?.[0]?.delta?.content ?? "";
        }
        // Cut: some text reached the client, then the stream's error event, and no usage.
        expect(seen.length).toBeGreaterThan(0);
        expect(res.text).toMatch(/error/);
        return res;
      },
      {
        prompt: tokens(prompt.length),
        get completion() {
          return tokens(seen.length);
        },
        estimated: true,
        status: 502,
      },
    );
  });

  it("a stream that ends with an error event: its early usage kept, its output estimated", async () => {
    const before = await tokenRow(stack, KEY);
    const res = await postJson(
      url("/v1/messages"),
      {
        model: "txtB-sonnet-4-6",
        max_tokens: 500,
        stream: true,
        messages: [{ role: "user", content: "[[fault:error-after=5]] [[len:80]] fail late" }],
      },
      { "x-api-key": KEY },
    );
    let input = 0;
    let output = 0;
    let seen = "";
    for (const frame of parseSse(res.text)) {
      const event = JSON.parse(frame.data);
      if (event.type === "message_start") {
        input = event.message.usage.input_tokens;
        output = event.message.usage.output_tokens;
      }
      if (event.type === "content_block_delta") seen += event.delta.text ?? "";
    }
    expect(res.text).toMatch(/event: error/);
    expect(input).toBeGreaterThan(0);
    const completion = Math.max(output, tokens(seen.length));
    expect(completion).toBeGreaterThan(output);
    const row = await rowOf(stack, res.headers.get("x-request-id"));
    // txtB-sonnet-4-6: input 1.5, output 7.5 credits a token.
    const cost = Math.ceil(input * 1.5 + completion * 7.5);
    expect(row).toMatchObject({
      promptTokens: input,
      completionTokens: completion,
      credits: cost,
      estimated: true,
    });
    expect((await tokenRow(stack, KEY)).used - before.used).toBe(cost);
  });

  it("a reported usage is charged as reported, not estimated", async () => {
    const res = await postJson(
      url("/v1/chat/completions"),
      { model: "txtA-5", messages: [{ role: "user", content: "real usage" }], max_tokens: 50 },
      auth(KEY),
    );
    const row = await rowOf(stack, res.headers.get("x-request-id"));
    const usage = res.json.data.usage;
    expect(row.estimated).toBeUndefined();
    expect(row.credits).toBe(credits(usage.prompt_tokens, usage.completion_tokens));
  });
});

describe("a stream drained past its bound after the client left", () => {
  let short: Stack;
  beforeAll(async () => {
    short = await startStack(
      {
        users: [{ id: "alice", quota: 1_000_000_000 }],
        tokens: [{ key: KEY, user: "alice", quota: 100_000_000, name: "delivery" }],
      },
      { drain: { maxMs: 150, maxBytes: 1_000_000 } },
    );
  });
  afterAll(async () => {
    await short?.close();
  });

  it("is charged the prompt estimate plus what the upstream sent before the bound", async () => {
    const prompt = "[[fault:chunk-delay=20]] [[len:200]] drain me";
    const before = await tokenRow(short, KEY);
    const controller = new AbortController();
    const res = await fetch(`${short.gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { ...auth(KEY), "content-type": "application/json" },
      body: JSON.stringify({
        model: "txtA-5",
        messages: [{ role: "user", content: prompt }],
        stream: true,
      }),
      signal: controller.signal,
    });
    await res.body!.getReader().read();
    controller.abort();
    const row = await rowOf(short, res.headers.get("x-request-id"));
    expect(row.estimated).toBe(true);
    expect(row.promptTokens).toBe(tokens(prompt.length));
    // Some of the 200 words went by before the drain gave up, not all of them.
    expect(row.completionTokens).toBeGreaterThan(0);
    expect(row.completionTokens).toBeLessThan(200);
    expect(row.credits).toBe(credits(row.promptTokens, row.completionTokens));
    expect((await tokenRow(short, KEY)).used - before.used).toBe(row.credits);
  });
});

describe("a call whose lease was reclaimed while it ran", () => {
  it("still settles: the real cost is charged without a hold, logged, and warned about", async () => {
    const before = await tokenRow(stack, KEY);
    const res = await fetch(url("/v1/chat/completions"), {
      method: "POST",
      headers: { ...auth(KEY), "content-type": "application/json" },
      body: JSON.stringify({
        model: "txtA-5",
        messages: [{ role: "user", content: "[[fault:chunk-delay=20]] [[len:20]] slow" }],
        stream: true,
        stream_options: { include_usage: true },
      }),
    });
    const reader = res.body!.getReader();
    await reader.read();
    // What another instance does to the leases of one whose heartbeat is older than the limit
    // (seen from a clock a minute ahead): here, to this one's, while its call is in flight.
    const reclaimed = await stack.gateway.services.store.reclaimLeases({
      before: Date.now() + 60_000,
    });
    expect(reclaimed.leases).toBe(2);
    expect((await tokenRow(stack, KEY)).reserved).toBe(0);
    let text = "";
    const utf8 = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += utf8.decode(value, { stream: true });
    }
    const usage = parseSse(text)
      .filter((f) => f.data !== "[DONE]")
      .map((f) => JSON.parse(f.data))
      .find((chunk) => chunk.usage)?.usage;
    const row = await rowOf(stack, res.headers.get("x-request-id"));
    expect(row.credits).toBe(credits(usage.prompt_tokens, usage.completion_tokens));
    const after = await tokenRow(stack, KEY);
    expect(after.used - before.used).toBe(row.credits);
    expect(after.reserved).toBe(0);
    expect(
      stack
        .logs()
        .some(
          (l) =>
            l["level"] === 40 &&
            String(l["msg"]).includes("charged without a hold") &&
            l["requestId"] === row.requestId,
        ),
    ).toBe(true);
  });
});

describe("a reply the gateway could not render", () => {
  it("is still charged the usage the upstream reported (the work was done and billed)", async () => {
    const services = stack.gateway.services;
    const found = await services.tokens.lookup(KEY);
    if (!found.ok) throw new Error("no token");
    const canonical = CLIENT_PROTOCOLS.chat.codec.request.parse({
      model: "txtA-5",
      messages: [{ role: "user", content: "render me" }],
      max_tokens: 100,
    });
    const request: GenerationRequest = {
      endpoint: ENDPOINTS.chat,
      requestId: "render-failure-1",
      token: found.token,
      log: requestLog(services.log, {}),
      wire: {},
      canonical,
      cache: { mode: "none", warnings: [] },
      model: "txtA-5",
      stream: false,
      jsonArrayStream: false,
      wrap: true,
      upstream: {},
      writesDirectly: false,
    };
    const before = await tokenRow(stack, KEY);
    const account = await openCallAccount(services, request, "txtA-5", performance.now());
    const usage = {
      inputTokens: 12,
      outputTokens: 30,
      cachedInputTokens: 0,
      cacheWriteTokens: 0,
      thinkingTokens: 0,
    };
    account.end({
      status: 500,
      usage,
      delivered: { outputChars: 120, complete: true },
      channel: "oa",
      error: "rendering failed",
    });
    const row = await rowOf(stack, "render-failure-1");
    expect(row).toMatchObject({ status: 500, credits: credits(12, 30), error: "rendering failed" });
    expect((await tokenRow(stack, KEY)).used - before.used).toBe(credits(12, 30));
  });
});
