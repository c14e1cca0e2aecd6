import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, KEY, postJson, type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

// SPEC.md "Context cache (cache_control)", rules 1-10, each through the gateway against the
// simulator's real cache endpoints. Prefixes are long enough for every upstream's minimum.
const OTHER_KEY = "sk-cache-bob";
const LONG = "The quick brown fox jumps over the lazy dog. ".repeat(600); // ~6.7k tokens
const TOOL = {
  type: "function",
  function: {
    name: "lookup",
    description: "Look something up",
    parameters: { type: "object", properties: { q: { type: "string" } } },
  },
};

let stack: Stack;
let clock = Date.parse("2026-06-01T00:00:00Z");
const now = () => clock;
const url = (path: string) => `${stack.gateway.url}${path}`;

const cacheCreates = () =>
  stack.sim.requests.filter((r) => r.method === "POST" && r.path === "/v1beta/cachedContents");
const lastGenerate = (): Json =>
  [...stack.sim.requests].reverse().find((r) => r.path.includes(":generateContent"))?.body;
const lastTo = (path: string): Json =>
  [...stack.sim.requests].reverse().find((r) => r.path === path)?.body;

function chatBody(model: string, ttl?: string, extra: Record<string, unknown> = {}) {
  return {
    model,
    messages: [
      { role: "system", content: "You answer chat questions." },
      {
        role: "user",
        content: [
          {
            type: "text",
            text: LONG,
            cache_control: ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl },
          },
        ],
      },
      { role: "assistant", content: "Noted." },
      { role: "user", content: "Summarise in one word." },
    ],
    ...extra,
  };
}

function nativeBody(
  ttl = "5m",
  live = "Summarise in one word.",
  extra: Record<string, unknown> = {},
) {
  return {
    systemInstruction: { parts: [{ text: "You are terse." }] },
    contents: [
      { role: "user", parts: [{ text: LONG, cache_control: { type: "ephemeral", ttl } }] },
      { role: "model", parts: [{ text: "Noted." }] },
      { role: "user", parts: [{ text: live }] },
    ],
    ...extra,
  };
}

const native = (body: unknown, key = KEY, model = "txtC-3.6-flash") =>
  postJson(url(`/v1beta/models/${model}:generateContent`), body, auth(key));

const hasCacheControl = (value: unknown): boolean =>
  JSON.stringify(value).includes("cache_control");

beforeAll(async () => {
  stack = await startStack(
    {
      simNow: now,
      users: [
        { id: "alice", quota: 1_000_000_000 },
        { id: "bob", quota: 1_000_000_000 },
      ],
      tokens: [
        { key: KEY, user: "alice", quota: 500_000_000, name: "alice" },
        { key: OTHER_KEY, user: "bob", quota: 500_000_000, name: "bob" },
      ],
    },
    { now },
  );
});
afterAll(async () => {
  await stack?.close();
});

describe("SPEC.md cache_control rules through the gateway", () => {
  it("rule 1 + 3: a native boundary creates the cache and uses it in the same request", async () => {
    const before = cacheCreates().length;
    const res = await native(nativeBody());
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before + 1);
    const created = cacheCreates().at(-1)!.body as Json;
    expect(created).toMatchObject({
      model: "models/txtC-3.6-flash",
      ttl: "300s",
      systemInstruction: { parts: [{ text: "You are terse." }] },
    });
    expect(created.contents).toEqual([{ role: "user", parts: [{ text: LONG }] }]);
    const sent = lastGenerate();
    expect(sent.cachedContent).toMatch(/^cachedContents\//);
    expect(sent.systemInstruction).toBeUndefined();
    expect(sent.contents).toHaveLength(2);
    // Rule 9: the first request already reports a large cached count.
    expect(res.json.data.usageMetadata.cachedContentTokenCount).toBeGreaterThan(1000);
  });

  it("rule 4: the same prefix reuses the cache; a changed tool definition misses", async () => {
    await native(nativeBody("5m", "again?"));
    const before = cacheCreates().length;
    const reuse = await native(nativeBody("5m", "and once more?"));
    expect(reuse.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before);
    expect(reuse.json.data.usageMetadata.cachedContentTokenCount).toBeGreaterThan(1000);
    const tools = { tools: [{ functionDeclarations: [{ name: "lookup", description: "x" }] }] };
    const changed = await native(nativeBody("5m", "with a tool", tools));
    expect(changed.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before + 1);
    expect(cacheCreates().at(-1)!.body).toMatchObject(tools);
  });

  it("rule 4: an expired ttl misses and creates a new cache", async () => {
    await native(nativeBody());
    const before = cacheCreates().length;
    clock += 6 * 60_000;
    const res = await native(nativeBody());
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before + 1);
  });

  it("rule 4: a different API user never shares a cache", async () => {
    await native(nativeBody("1h"));
    const before = cacheCreates().length;
    const res = await native(nativeBody("1h"), OTHER_KEY);
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before + 1);
    expect(cacheCreates().at(-1)!.body).toMatchObject({ ttl: "3600s" });
  });

  it("rule 2: a boundary on the last content runs in ordinary mode", async () => {
    const before = cacheCreates().length;
    const body = {
      contents: [{ role: "user", parts: [{ text: LONG, cache_control: { type: "ephemeral" } }] }],
    };
    const res = await native(body);
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before);
    expect(hasCacheControl(lastGenerate())).toBe(false);
    expect(lastGenerate().cachedContent).toBeUndefined();
  });

  it("rule 5: several boundaries with one ttl: the last one is used", async () => {
    const before = cacheCreates().length;
    const body = {
      contents: [
        { role: "user", parts: [{ text: LONG, cache_control: { type: "ephemeral" } }] },
        { role: "model", parts: [{ text: "ok", cache_control: { type: "ephemeral" } }] },
        { role: "user", parts: [{ text: "go" }] },
      ],
    };
    expect((await native(body)).status).toBe(200);
    expect(cacheCreates()).toHaveLength(before + 1);
    expect((cacheCreates().at(-1)!.body as Json).contents).toHaveLength(2);
    expect(lastGenerate().contents).toEqual([{ role: "user", parts: [{ text: "go" }] }]);
  });

  it("rule 6: ttl 10m is a 400 on chat and INVALID_ARGUMENT on native; mixed ttls too", async () => {
    const chat = await postJson(url("/v1/chat/completions"), chatBody("txtA-5", "10m"));
    expect(chat.status).toBe(400);
    expect(chat.json.error).toMatchObject({ code: 400, type: "invalid_request_error" });
    const nat = await native(nativeBody("10m"));
    expect(nat.status).toBe(400);
    expect(nat.json.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
    const mixed = {
      contents: [
        { role: "user", parts: [{ text: "a", cache_control: { type: "ephemeral", ttl: "5m" } }] },
        { role: "model", parts: [{ text: "b", cache_control: { type: "ephemeral", ttl: "1h" } }] },
        { role: "user", parts: [{ text: "c" }] },
      ],
    };
    const res = await native(mixed);
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/ttl/);
  });

  it("rule 7: a prefix below the upstream's minimum runs as an ordinary request", async () => {
    const before = cacheCreates().length;
    const body = {
      contents: [
        { role: "user", parts: [{ text: "short", cache_control: { type: "ephemeral" } }] },
        { role: "user", parts: [{ text: "go" }] },
      ],
    };
    const res = await native(body);
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before);
    expect(hasCacheControl(lastGenerate())).toBe(false);
  });

  it("rule 8: a native request naming cachedContent is forwarded with it, and no cache is created", async () => {
    const first = await native(nativeBody("1h", "make one"));
    expect(first.status).toBe(200);
    const name = lastGenerate().cachedContent as string;
    const before = cacheCreates().length;
    const res = await native({
      cachedContent: name,
      contents: [{ role: "user", parts: [{ text: "use it" }] }],
    });
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before);
    expect(lastGenerate().cachedContent).toBe(name);
  });

  it("rule 8: chat toward OpenAI strips cache_control and sends a stable prompt_cache_key", async () => {
    const one = await postJson(url("/v1/chat/completions"), chatBody("txtA-5"));
    expect(one.status).toBe(200);
    const sent = lastTo("/v1/chat/completions");
    expect(hasCacheControl(sent)).toBe(false);
    expect(sent.prompt_cache_key).toMatch(/^il-[0-9a-f]{32}$/);
    await postJson(
      url("/v1/chat/completions"),
      chatBody("txtA-5", undefined, { temperature: 0.5 }),
    );
    expect(lastTo("/v1/chat/completions").prompt_cache_key).toBe(sent.prompt_cache_key);
    await postJson(url("/v1/chat/completions"), chatBody("txtA-5", undefined, { tools: [TOOL] }));
    expect(lastTo("/v1/chat/completions").prompt_cache_key).not.toBe(sent.prompt_cache_key);
  });

  it("rule 8: chat toward Anthropic puts exactly one breakpoint on the boundary block", async () => {
    const res = await postJson(url("/v1/chat/completions"), chatBody("txtB-sonnet-4-6", "1h"));
    expect(res.status).toBe(200);
    const sent = lastTo("/v1/messages");
    const marks = JSON.stringify(sent).match(/cache_control/g) ?? [];
    expect(marks).toHaveLength(1);
    expect(sent.messages[0].content[0]).toEqual({
      type: "text",
      text: LONG,
      cache_control: { type: "ephemeral", ttl: "1h" },
    });
  });

  it("chat toward Gemini caches too, and reports cached_tokens in chat usage (rule 9)", async () => {
    const before = cacheCreates().length;
    const res = await postJson(url("/v1/chat/completions"), chatBody("txtC-3.6-flash"));
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before + 1);
    const details = res.json.data.usage.prompt_tokens_details;
    expect(details.cached_tokens).toBeGreaterThan(1000);
    expect(res.json.data.usage.prompt_tokens).toBeGreaterThanOrEqual(details.cached_tokens);
  });

  it("rule 10: cached input at the cache-read price plus the one-time storage charge", async () => {
    await stack.gateway.services.accounting!.flush();
    clock += 2 * 60 * 60_000; // every earlier cache has expired: the next request creates one
    const res = await native(nativeBody("5m", "bill me"));
    expect(res.status).toBe(200);
    const usage = res.json.data.usageMetadata;
    await stack.gateway.services.accounting!.flush();
    const rows = await stack.gateway.services.store.queryLogs(
      { userId: "alice", tokenName: "alice" },
      { offset: 0, limit: 1 },
    );
    const row = rows.items[0]!;
    expect(row.cachedTokens).toBe(usage.cachedContentTokenCount);
    // txtC-3.6-flash: input 0.5, cached 0.05, output 3, storage 1 per 1M tokens per hour (USD);
    // x 500000 credits per USD. The cache holds the prefix and system (its creation usage).
    const plain = usage.promptTokenCount - usage.cachedContentTokenCount;
    const output = usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0);
    const storageTokenHours = Math.ceil(usage.cachedContentTokenCount * (5 / 60));
    const nano =
      plain * 0.5 * 500_000 * 1e9 +
      usage.cachedContentTokenCount * 0.05 * 500_000 * 1e9 +
      output * 3 * 500_000 * 1e9 +
      storageTokenHours * 1 * 500_000 * 1e9;
    expect(row.credits).toBe(Math.ceil(nano / 1e15));
  });
});
