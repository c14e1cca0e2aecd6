import { describe, expect, it } from "vitest";
import { FIXED_NOW, post, sseJson, useSim } from "../testing/http.ts";
import { thinkingSignature } from "./thinking-signature.ts";

// Anthropic prompt caching: cache_control breakpoints write the prefix, later requests read it.
// Token counts are ceil(chars / 4) over tools, system and messages, so every number is by hand.

let clock = FIXED_NOW;
const sim = useSim({ now: () => clock });
const HEADERS = { "x-api-key": "sk-ant-cache", "anthropic-version": "2023-06-01" };
const messages = (body: unknown, headers: Record<string, string> = HEADERS) =>
  post(`${sim().url}/v1/messages`, body, headers);

const A = "a".repeat(8000); // 2000 tokens
const B = "b".repeat(8000);
const ephemeral = (ttl?: "5m" | "1h") => ({ type: "ephemeral", ...(ttl ? { ttl } : {}) });

/** system "Be brief." (9) + a breakpoint on an 8000-char block + "ok" (2) + the question. */
const conversation = (question: string, model = "claude-sonnet-4-5", ttl?: "5m" | "1h") => ({
  model,
  max_tokens: 64,
  system: [{ type: "text", text: "Be brief." }],
  messages: [
    { role: "user", content: [{ type: "text", text: A, cache_control: ephemeral(ttl) }] },
    { role: "assistant", content: "ok" },
    { role: "user", content: question },
  ],
});

const cacheUsage = (input: number, read: number, write5m: number, write1h: number) => ({
  input_tokens: input,
  cache_creation_input_tokens: write5m + write1h,
  cache_read_input_tokens: read,
  cache_creation: { ephemeral_5m_input_tokens: write5m, ephemeral_1h_input_tokens: write1h },
});

async function usageOf(body: unknown, headers?: Record<string, string>) {
  const response = await messages(body, headers);
  expect(response.status).toBe(200);
  return (await response.json()).usage;
}

describe("Anthropic prompt caching", () => {
  it("writes the prefix on the first request and reads it on the next; input_tokens excludes both", async () => {
    clock = FIXED_NOW;
    // Prefix: 9 + 8000 chars = 2003 tokens; whole prompt 9 + 8000 + 2 + 12 = 8023 chars = 2006.
    expect(await usageOf(conversation("Question one"))).toMatchObject(cacheUsage(3, 0, 2003, 0));
    expect(await usageOf(conversation("Question two"))).toMatchObject(cacheUsage(3, 2003, 0, 0));
  });

  it("splits writes by ttl and reads every live breakpoint's prefix", async () => {
    clock = FIXED_NOW;
    const body = (question: string) => ({
      model: "claude-opus-4-1",
      max_tokens: 64,
      system: [{ type: "text", text: A, cache_control: ephemeral("1h") }],
      messages: [
        { role: "user", content: [{ type: "text", text: B, cache_control: ephemeral("5m") }] },
        { role: "user", content: question },
      ],
    });
    expect(await usageOf(body("one"))).toMatchObject(cacheUsage(1, 0, 2000, 2000));
    expect(await usageOf(body("two"))).toMatchObject(cacheUsage(1, 4000, 0, 0));
    // After 6 minutes the 5m entry is gone, the 1h one is read and the message part rewritten.
    clock += 6 * 60_000;
    expect(await usageOf(body("three"))).toMatchObject(cacheUsage(2, 2000, 2000, 0));
  });

  it("expires after the ttl unless a hit refreshes it", async () => {
    clock = FIXED_NOW + 10 * 60 * 60_000;
    await usageOf(conversation("first", "claude-haiku-4-5"));
    clock += 4 * 60_000;
    expect((await usageOf(conversation("hit", "claude-haiku-4-5"))).cache_read_input_tokens).toBe(
      2003,
    );
    clock += 4 * 60_000; // 8 minutes after the write, 4 after the refreshing hit
    expect((await usageOf(conversation("hit", "claude-haiku-4-5"))).cache_read_input_tokens).toBe(
      2003,
    );
    clock += 5 * 60_000 + 1;
    const expired = await usageOf(conversation("miss", "claude-haiku-4-5"));
    expect(expired).toMatchObject(cacheUsage(1, 0, 2003, 0));
  });

  it("keeps caches apart by API key and by model", async () => {
    clock = FIXED_NOW + 20 * 60 * 60_000;
    await usageOf(conversation("q", "claude-a"));
    const otherKey = { ...HEADERS, "x-api-key": "sk-ant-other" };
    expect((await usageOf(conversation("q", "claude-a"), otherKey)).cache_read_input_tokens).toBe(
      0,
    );
    expect((await usageOf(conversation("q", "claude-b"))).cache_read_input_tokens).toBe(0);
    expect((await usageOf(conversation("q", "claude-a"))).cache_read_input_tokens).toBe(2003);
  });

  it("caches nothing below 1024 tokens, without an error", async () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 64,
      messages: [
        { role: "user", content: [{ type: "text", text: "short", cache_control: ephemeral() }] },
        { role: "user", content: "go" },
      ],
    };
    expect(await usageOf(body)).toMatchObject(cacheUsage(2, 0, 0, 0));
    expect(await usageOf(body)).toMatchObject(cacheUsage(2, 0, 0, 0));
  });

  it("finds an entry up to 20 blocks before a breakpoint that moved on", async () => {
    clock = FIXED_NOW + 30 * 60 * 60_000;
    const first = conversation("q1", "claude-lookback");
    await usageOf(first);
    const later = {
      ...first,
      messages: [
        { role: "user", content: [{ type: "text", text: A }] },
        { role: "assistant", content: "ok" },
        { role: "user", content: [{ type: "text", text: "q1", cache_control: ephemeral() }] },
        { role: "assistant", content: "a1" },
        { role: "user", content: "q2" },
      ],
    };
    // Read 2003 (up to A); written from there to the new breakpoint: 9 + 8000 + "ok" + "q1" =
    // 8013 chars = 2004 tokens, so 1; the whole prompt is 8017 chars = 2005 tokens.
    expect(await usageOf(later)).toMatchObject(cacheUsage(1, 2003, 1, 0));
  });

  it("breakpoints on tools cache the tool definitions", async () => {
    clock = FIXED_NOW + 40 * 60 * 60_000;
    const tool = { name: "lookup", description: A, input_schema: { type: "object" } };
    const body = {
      model: "claude-tools",
      max_tokens: 64,
      tools: [{ ...tool, cache_control: ephemeral() }],
      messages: [{ role: "user", content: "hello" }],
    };
    const toolTokens = Math.ceil(JSON.stringify([tool]).length / 4);
    const first = await usageOf(body);
    expect(first.cache_creation_input_tokens).toBe(toolTokens);
    const second = await usageOf({ ...body, messages: [{ role: "user", content: "again" }] });
    expect(second.cache_read_input_tokens).toBe(toolTokens);
  });

  it("reports the cache fields in message_start and message_delta of a stream", async () => {
    clock = FIXED_NOW + 50 * 60 * 60_000;
    await usageOf(conversation("s1", "claude-stream"));
    const events = sseJson(
      await (await messages({ ...conversation("s2", "claude-stream"), stream: true })).text(),
    );
    const start = events.find((e) => e.type === "message_start") as {
      message: { usage: Record<string, unknown> };
    };
    expect(start.message.usage).toMatchObject(cacheUsage(1, 2003, 0, 0));
    const delta = events.find((e) => e.type === "message_delta") as {
      usage: Record<string, unknown>;
    };
    expect(delta.usage).toMatchObject({ input_tokens: 1, cache_read_input_tokens: 2003 });
  });

  describe("refuses what the API refuses", () => {
    const text = (control: unknown) => ({ type: "text", text: "x", cache_control: control });
    const refusal = async (body: unknown) => {
      const response = await messages(body);
      expect(response.status).toBe(400);
      return (await response.json()).error;
    };

    it("more than 4 breakpoints", async () => {
      const error = await refusal({
        model: "m",
        max_tokens: 8,
        messages: [{ role: "user", content: Array.from({ length: 5 }, () => text(ephemeral())) }],
      });
      expect(error).toEqual({
        type: "invalid_request_error",
        message: "A maximum of 4 blocks with cache_control may be provided. Found 5.",
      });
    });

    it("a 1h breakpoint after a 5m one (tools, system, messages order)", async () => {
      const error = await refusal({
        model: "m",
        max_tokens: 8,
        system: [text(ephemeral("5m"))],
        messages: [{ role: "user", content: [text(ephemeral("1h"))] }],
      });
      expect(error.message).toMatch(
        /^messages\.0\.content\.0\.cache_control\.ttl: a ttl='1h' cache_control block must not come after a ttl='5m'/,
      );
    });

    it("cache_control on a thinking block, and an unknown ttl", async () => {
      const thinking = await refusal({
        model: "m",
        max_tokens: 8,
        messages: [
          { role: "user", content: "q" },
          {
            role: "assistant",
            content: [
              {
                type: "thinking",
                thinking: "t",
                signature: thinkingSignature("t"),
                cache_control: ephemeral(),
              },
            ],
          },
          { role: "user", content: "q" },
        ],
      });
      expect(thinking.message).toBe(
        "messages.1.content.0.thinking.cache_control: Extra inputs are not permitted",
      );
      const ttl = await refusal({
        model: "m",
        max_tokens: 8,
        messages: [{ role: "user", content: [text({ type: "ephemeral", ttl: "10m" })] }],
      });
      expect(ttl.message).toBe(
        "messages.0.content.0.cache_control.ttl: Input should be '5m' or '1h'",
      );
    });
  });
});
