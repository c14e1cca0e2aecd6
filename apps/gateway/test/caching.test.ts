import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { breakerKey } from "../src/routing/model-router.ts";
import { auth, eventually, KEY, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import type { Json } from "./wire.ts";

// docs/api-reference.md "Context cache (cache_control)", rules 1-10, each through the gateway against the
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

/** A boundary marker; without a ttl, as a client leaving it to the default writes it. */
const mark = (ttl?: string) =>
  ttl === undefined ? { type: "ephemeral" } : { type: "ephemeral", ttl };

/** A chat request caching `prefix` (after a system message) with `live` asked after it. */
function chatBody(
  model: string,
  ttl?: string,
  extra: Record<string, unknown> = {},
  prefix = LONG,
  live = "Summarise in one word.",
) {
  return {
    model,
    messages: [
      { role: "system", content: "You answer chat questions." },
      { role: "user", content: [{ type: "text", text: prefix, cache_control: mark(ttl) }] },
      { role: "assistant", content: "Noted." },
      { role: "user", content: live },
    ],
    ...extra,
  };
}

/** A native request caching `prefix` (with a system instruction) with `live` asked after it. */
function nativeBody(
  ttl = "5m",
  live = "Summarise in one word.",
  extra: Record<string, unknown> = {},
  prefix = LONG,
) {
  return {
    systemInstruction: { parts: [{ text: "You are terse." }] },
    contents: [
      { role: "user", parts: [{ text: prefix, cache_control: { type: "ephemeral", ttl } }] },
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

/** Channels beside the simulator's own: two Gemini channels for one model, and caching off. */
const extraChannels = (url: string) => {
  const channel = (name: string, protocol: "openai" | "anthropic" | "gemini", model: string) => ({
    name,
    protocol,
    base_url: url,
    api_key: UPSTREAM_KEY,
    models: [model],
  });
  return [
    { ...channel("ge-a", "gemini", "txtC-3-flash-preview"), priority: 0 },
    { ...channel("ge-b", "gemini", "txtC-3-flash-preview"), priority: 1 },
    { ...channel("oa-off", "openai", "txtA-5-mini"), caching: false },
    { ...channel("an-off", "anthropic", "txtB-opus-4-7"), caching: false },
    { ...channel("ge-off", "gemini", "txtC-3.5-flash"), caching: false },
  ];
};

beforeAll(async () => {
  stack = await startStack(
    {
      simNow: now,
      extraChannels,
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

describe("docs/api-reference.md cache_control rules through the gateway", () => {
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
    const row = await rowOf(res);
    expect(row.cachedTokens).toBe(usage.cachedContentTokenCount);
    // The cache holds the prefix and system (its creation usage), stored for 5 minutes.
    const name = lastGenerate().cachedContent as string;
    expect(row.credits).toBe(
      credits([...flashTokens(usage), [(await cacheTokens(name)) * (5 / 60), FLASH.storage]]),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Helpers for the tests below: each test uses its own prefix (a tag in front of LONG), so no
// test depends on the caches an earlier one left behind.

const ANTHROPIC_HEADERS = { ...auth(), "anthropic-version": "2023-06-01" };
const generationsSince = (seen: number) =>
  stack.sim.requests
    .slice(seen)
    .filter((r) => r.path.includes(":generateContent") || r.path.startsWith("/v1/"));
const lastGeneration = (seen: number): Json => generationsSince(seen).at(-1)?.body;

/** A chat request whose cached prefix starts with `tag`; `live` is the question after it. */
const chatWith = (model: string, tag: string, live = "One word?", ttl?: string) =>
  chatBody(model, ttl, {}, `${tag} ${LONG}`, live);

/** A native request whose cached prefix starts with `tag`. */
const nativeWith = (tag: string, live: string, ttl = "5m") =>
  nativeBody(ttl, live, {}, `${tag} ${LONG}`);

const chat = (body: unknown, key = KEY) => postJson(url("/v1/chat/completions"), body, auth(key));

/** The usage row of one call, found by its request id. */
async function rowOf(res: { headers: Headers }) {
  const requestId = res.headers.get("x-request-id");
  expect(requestId).toBeTruthy();
  await stack.gateway.services.accounting!.flush();
  const rows = await stack.gateway.services.store.queryLogs(
    { userId: "alice" },
    { offset: 0, limit: 200 },
  );
  const row = rows.items.find((r) => r.requestId === requestId);
  expect(row, `no usage row for ${requestId}`).toBeDefined();
  return row!;
}

/**
 * Credits for quantities at USD prices per 1M, computed the way prices are defined (500000
 * credits per USD; a fraction of a token-hour billed as it is, to a millionth; the call rounded up
 * once, to whole credits), independently of the price book's code.
 */
function credits(items: [quantity: number, usdPerMillion: number][]): number {
  const scale = 1_000_000_000_000_000n * 1_000_000n; // nano-credits x 1M units x millionths
  const scaled = items.reduce(
    (sum, [quantity, usd]) =>
      sum + BigInt(Math.round(quantity * 1e6)) * BigInt(Math.round(usd * 500_000 * 1e9)),
    0n,
  );
  return Number((scaled + scale - 1n) / scale);
}

/** The log line a request completed with, once it is written (after the reply). */
async function completedLog(res: { headers: Headers }) {
  const requestId = res.headers.get("x-request-id");
  const find = () =>
    stack
      .logs()
      .find(
        (line) =>
          line.requestId === requestId &&
          (line.msg === "request completed" || line.msg === "request failed"),
      );
  await eventually(() => find() !== undefined);
  return find() as Json;
}

/** Tokens a Gemini cache holds, as the simulator reports them. */
async function cacheTokens(name: string): Promise<number> {
  const res = await fetch(`${stack.sim.url}/v1beta/${name}`, {
    headers: { "x-goog-api-key": UPSTREAM_KEY },
    signal: AbortSignal.timeout(5000),
  });
  return ((await res.json()) as Json).usageMetadata.totalTokenCount;
}

// txtB-sonnet-4-6 (USD per 1M): input 3, output 15, cached 0.3, write 3.75, 1h write 6.
const SONNET = { input: 3, output: 15, cached: 0.3, write5m: 3.75, write1h: 6 };
// txtC-3.6-flash: input 0.5, output 3, cached 0.05, storage 1 per 1M tokens per hour.
const FLASH = { input: 0.5, output: 3, cached: 0.05, storage: 1 };

/** The token part of a txtC-3.6-flash call's charge, from its usageMetadata (`credits` items). */
const flashTokens = (usage: Json): [number, number][] => [
  [usage.promptTokenCount - usage.cachedContentTokenCount, FLASH.input],
  [usage.cachedContentTokenCount, FLASH.cached],
  [usage.candidatesTokenCount + (usage.thoughtsTokenCount ?? 0), FLASH.output],
];

describe("Anthropic and OpenAI upstreams (rules 3, 4, 9, 10)", () => {
  it("chat -> Anthropic: the first call reports cache_write_tokens, the next cached_tokens", async () => {
    const first = await chat(chatWith("txtB-sonnet-4-6", "anthropic-chat", "first?"));
    expect(first.status).toBe(200);
    const written = first.json.data.usage.prompt_tokens_details;
    expect(written.cache_write_tokens).toBeGreaterThan(1000);
    expect(written.cached_tokens).toBe(0);
    const second = await chat(chatWith("txtB-sonnet-4-6", "anthropic-chat", "second?"));
    expect(second.status).toBe(200);
    const read = second.json.data.usage.prompt_tokens_details;
    expect(read.cached_tokens).toBe(written.cache_write_tokens);
    expect(read.cache_write_tokens).toBe(0);
    // chat prompt_tokens count every prompt token, cached and written ones included.
    expect(second.json.data.usage.prompt_tokens).toBeGreaterThan(read.cached_tokens);
  });

  // Anthropic caches by exact prefix per API key: two users of one channel would share a cache
  // unless the gateway's plan makes their prefixes differ (rule 4).
  it("rule 4: chat -> Anthropic: another API user's identical request writes its own cache", async () => {
    const body = chatWith("txtB-opus-4-8", "anthropic-users", "One word?", "1h");
    const seen = stack.sim.requests.length;
    const first = await chat(body);
    expect(first.status).toBe(200);
    const written = first.json.data.usage.prompt_tokens_details;
    expect(written.cache_write_tokens).toBeGreaterThan(1000);
    expect(written.cached_tokens).toBe(0);

    const other = await chat(body, OTHER_KEY);
    expect(other.status).toBe(200);
    expect(other.json.data.usage.prompt_tokens_details).toMatchObject({
      cached_tokens: 0,
      cache_write_tokens: written.cache_write_tokens,
    });

    const again = await chat(body);
    expect(again.json.data.usage.prompt_tokens_details).toMatchObject({
      cached_tokens: written.cache_write_tokens,
      cache_write_tokens: 0,
    });
    // The scope marker names no user in clear.
    const sent = generationsSince(seen).map((r) => JSON.stringify((r.body as Json).system));
    expect(sent[0]).not.toContain("alice");
    expect(sent[1]).not.toContain("bob");
    expect(sent[2]).toBe(sent[0]);
  });

  it("rule 4: native -> Anthropic: another API user's identical request writes its own cache", async () => {
    const body = nativeWith("native-anthropic-users", "One word?");
    const first = await native(body, KEY, "txtB-opus-4-8");
    expect(first.status).toBe(200);
    expect(first.json.data.usageMetadata.cachedContentTokenCount ?? 0).toBe(0);
    const other = await native(body, OTHER_KEY, "txtB-opus-4-8");
    expect(other.status).toBe(200);
    expect(other.json.data.usageMetadata.cachedContentTokenCount ?? 0).toBe(0);
    const again = await native(body, KEY, "txtB-opus-4-8");
    expect(again.json.data.usageMetadata.cachedContentTokenCount).toBeGreaterThan(1000);
  });

  it("messages -> Anthropic: the client's own cache_control goes through and its usage fields come back", async () => {
    const body = (question: string) => ({
      model: "txtB-sonnet-4-6",
      max_tokens: 64,
      system: [
        {
          type: "text",
          text: `messages-own ${LONG}`,
          cache_control: { type: "ephemeral", ttl: "1h" },
        },
      ],
      messages: [{ role: "user", content: question }],
    });
    const seen = stack.sim.requests.length;
    const first = await postJson(url("/v1/messages"), body("first?"), ANTHROPIC_HEADERS);
    expect(first.status).toBe(200);
    expect(lastGeneration(seen)).toEqual(body("first?"));
    const written = first.json.usage;
    expect(written.cache_creation_input_tokens).toBeGreaterThan(1000);
    expect(written.cache_creation).toEqual({
      ephemeral_5m_input_tokens: 0,
      ephemeral_1h_input_tokens: written.cache_creation_input_tokens,
    });
    const second = await postJson(url("/v1/messages"), body("second?"), ANTHROPIC_HEADERS);
    expect(second.json.usage).toMatchObject({
      cache_read_input_tokens: written.cache_creation_input_tokens,
      cache_creation_input_tokens: 0,
      input_tokens: expect.any(Number),
    });
    expect(second.json.usage.input_tokens).toBeLessThan(10);
  });

  it("chat -> OpenAI: cached_tokens on the second call, in 128-token steps", async () => {
    const first = await chat(chatWith("txtA-5", "openai-chat", "first?"));
    expect(first.status).toBe(200);
    expect(first.json.data.usage.prompt_tokens_details.cached_tokens).toBe(0);
    const second = await chat(chatWith("txtA-5", "openai-chat", "second?"));
    const usage = second.json.data.usage;
    expect(usage.prompt_tokens_details.cached_tokens).toBeGreaterThan(1000);
    expect(usage.prompt_tokens_details.cached_tokens % 128).toBe(0);
    expect(usage.prompt_tokens).toBeGreaterThanOrEqual(usage.prompt_tokens_details.cached_tokens);
    // A different API user gets a different prompt_cache_key, which OpenAI routes on (and the
    // simulator, like a different machine, keeps apart): no hit, though OpenAI promises none.
    const other = await chat(chatWith("txtA-5", "openai-chat", "third?"), OTHER_KEY);
    expect(other.json.data.usage.prompt_tokens_details.cached_tokens).toBe(0);
  });

  it("native -> Anthropic: the prefix is cached with one breakpoint and read as cachedContentTokenCount", async () => {
    const seen = stack.sim.requests.length;
    const first = await native(nativeWith("native-anthropic", "first?"), KEY, "txtB-sonnet-4-6");
    expect(first.status).toBe(200);
    expect(JSON.stringify(lastGeneration(seen)).match(/cache_control/g)).toHaveLength(1);
    expect(first.json.data.usageMetadata.cachedContentTokenCount ?? 0).toBe(0);
    const second = await native(nativeWith("native-anthropic", "second?"), KEY, "txtB-sonnet-4-6");
    const usage = second.json.data.usageMetadata;
    expect(usage.cachedContentTokenCount).toBeGreaterThan(1000);
    expect(usage.promptTokenCount).toBeGreaterThan(usage.cachedContentTokenCount);
  });

  it("billing: writes at cache_write (1h at cache_write_1h), reads at cached_input", async () => {
    // 1h writes, through the messages client (its usage shows the 5m / 1h split).
    const body = (question: string) => ({
      model: "txtB-sonnet-4-6",
      max_tokens: 64,
      messages: [
        {
          role: "user",
          content: [
            {
              type: "text",
              text: `bill-1h ${LONG}`,
              cache_control: { type: "ephemeral", ttl: "1h" },
            },
          ],
        },
        { role: "assistant", content: "Noted." },
        { role: "user", content: question },
      ],
    });
    const write = await postJson(url("/v1/messages"), body("first?"), ANTHROPIC_HEADERS);
    const w = write.json.usage;
    expect(w.cache_creation.ephemeral_1h_input_tokens).toBeGreaterThan(1000);
    const writeRow = await rowOf(write);
    expect(writeRow.cacheWriteTokens).toBe(w.cache_creation_input_tokens);
    expect(writeRow.credits).toBe(
      credits([
        [w.input_tokens, SONNET.input],
        [w.cache_creation.ephemeral_1h_input_tokens, SONNET.write1h],
        [w.output_tokens, SONNET.output],
      ]),
    );
    const read = await postJson(url("/v1/messages"), body("second?"), ANTHROPIC_HEADERS);
    const r = read.json.usage;
    const readRow = await rowOf(read);
    expect(readRow.cachedTokens).toBe(r.cache_read_input_tokens);
    expect(readRow.credits).toBe(
      credits([
        [r.input_tokens, SONNET.input],
        [r.cache_read_input_tokens, SONNET.cached],
        [r.output_tokens, SONNET.output],
      ]),
    );
    // 5m writes, through chat (its usage counts writes inside prompt_tokens).
    const chatWrite = await chat(chatWith("txtB-sonnet-4-6", "bill-5m", "first?"));
    const u = chatWrite.json.data.usage;
    const written = u.prompt_tokens_details.cache_write_tokens;
    expect(written).toBeGreaterThan(1000);
    expect((await rowOf(chatWrite)).credits).toBe(
      credits([
        [u.prompt_tokens - written, SONNET.input],
        [written, SONNET.write5m],
        [u.completion_tokens, SONNET.output],
      ]),
    );
  });
});

describe("Gemini caches: rules 4, 7, 10 and the registry", () => {
  it("rule 4: the same request on another channel makes that channel's own cache", async () => {
    const breaker = stack.gateway.services.router.breaker;
    const body = (live: string) => nativeWith("two-channels", live);
    const before = cacheCreates().length;
    const first = await native(body("one?"), KEY, "txtC-3-flash-preview");
    expect(first.status).toBe(200);
    expect((await completedLog(first)).channel).toBe("ge-a");
    await native(body("two?"), KEY, "txtC-3-flash-preview");
    expect(cacheCreates()).toHaveLength(before + 1);
    // ge-a out of the way (its circuit open): ge-b serves the same user, model and prefix.
    const circuit = breakerKey("ge-a", "txtC-3-flash-preview");
    breaker.trip(circuit);
    try {
      const other = await native(body("three?"), KEY, "txtC-3-flash-preview");
      expect(other.status).toBe(200);
      expect((await completedLog(other)).channel).toBe("ge-b");
      expect(cacheCreates()).toHaveLength(before + 2);
      expect(other.json.data.usageMetadata.cachedContentTokenCount).toBeGreaterThan(1000);
    } finally {
      breaker.onSuccess(circuit);
    }
  });

  it("rule 7: a cache gone upstream is forgotten; the same channel is tried again, not failed nor blamed", async () => {
    const body = (live: string) => nativeWith("stale", live);
    const seen = stack.sim.requests.length;
    expect((await native(body("one?"))).status).toBe(200);
    const gone = lastGeneration(seen).cachedContent as string;
    const deleted = await fetch(`${stack.sim.url}/v1beta/${gone}`, {
      method: "DELETE",
      headers: { "x-goog-api-key": UPSTREAM_KEY },
      signal: AbortSignal.timeout(5000),
    });
    expect(deleted.status).toBe(200);

    const onFailure = vi.spyOn(stack.gateway.services.router.breaker, "onFailure");
    try {
      const before = cacheCreates().length;
      const retried = await native(body("two?"));
      expect(retried.status).toBe(200);
      expect(retried.json.data.usageMetadata.cachedContentTokenCount).toBeGreaterThan(1000);
      expect(cacheCreates()).toHaveLength(before + 1);
      const fresh = lastGeneration(seen).cachedContent as string;
      expect(fresh).toMatch(/^cachedContents\//);
      expect(fresh).not.toBe(gone);
      expect(onFailure).not.toHaveBeenCalled();
      const log = await completedLog(retried);
      expect(log.attempts.map((a: Json) => [a.channel, a.outcome, a.status])).toEqual([
        ["ge", "stale-cache", 403],
        ["ge", "ok", undefined],
      ]);
      // The registry now holds the new cache.
      expect((await native(body("three?"))).status).toBe(200);
      expect(cacheCreates()).toHaveLength(before + 1);
      expect(lastGeneration(seen).cachedContent).toBe(fresh);
    } finally {
      onFailure.mockRestore();
    }
  });

  it("rule 7: a failed cache creation runs the request as an ordinary one", async () => {
    const before = cacheCreates().length;
    const seen = stack.sim.requests.length;
    // The directive sits in the cached prefix: only the cachedContents create sees it.
    const res = await native(nativeWith("[[fault:cache-create=503]] create-fails", "go on"));
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before + 1);
    const sent = lastGeneration(seen);
    expect(sent.cachedContent).toBeUndefined();
    expect(sent.contents).toHaveLength(3);
    expect(hasCacheControl(sent)).toBe(false);
    expect(res.json.data.usageMetadata.cachedContentTokenCount ?? 0).toBe(0);
    const log = await completedLog(res);
    expect(log).toMatchObject({
      cache: "ordinary",
      cacheReason: expect.stringMatching(/creation failed/),
    });
  });

  it.each([
    ["txtC-3.5-flash", "ge-off"],
    ["txtA-5-mini", "oa-off"],
    ["txtB-opus-4-7", "an-off"],
  ])(
    "rule 7: %s on a channel with caching off (%s) runs as an ordinary request",
    async (model, channel) => {
      const before = cacheCreates().length;
      const seen = stack.sim.requests.length;
      const res = await chat(chatWith(model, `off-${channel}`));
      expect(res.status).toBe(200);
      expect(cacheCreates()).toHaveLength(before);
      const sent = lastGeneration(seen);
      expect(hasCacheControl(sent)).toBe(false);
      expect(sent.prompt_cache_key).toBeUndefined();
      expect(sent.cachedContent).toBeUndefined();
      expect(await completedLog(res)).toMatchObject({
        channel,
        cache: "ordinary",
        cacheReason: "caching is off for this channel",
      });
    },
  );

  it("rule 8 + warnings: a boundary only in systemInstruction is ignored, stripped and reported", async () => {
    const seen = stack.sim.requests.length;
    const res = await native({
      systemInstruction: {
        parts: [{ text: `sys-only ${LONG}`, cache_control: { type: "ephemeral" } }],
      },
      contents: [{ role: "user", parts: [{ text: "go" }] }],
    });
    expect(res.status).toBe(200);
    expect(hasCacheControl(lastGeneration(seen))).toBe(false);
    const log = await completedLog(res);
    expect(log.warnings).toContainEqual(
      expect.objectContaining({ type: "dropped", feature: "system[0].cacheControl" }),
    );
  });

  it("rule 1 + warnings: a boundary on a native tool or function is ignored, stripped and reported", async () => {
    const seen = stack.sim.requests.length;
    const res = await native({
      contents: [{ role: "user", parts: [{ text: "go" }] }],
      tools: [
        {
          functionDeclarations: [
            {
              name: "lookup",
              parameters: { type: "object" },
              cache_control: { type: "ephemeral" },
            },
          ],
          cache_control: { type: "ephemeral" },
        },
      ],
    });
    expect(res.status).toBe(200);
    const sent = lastGeneration(seen);
    expect(hasCacheControl(sent)).toBe(false);
    expect(sent.tools).toEqual([
      { functionDeclarations: [{ name: "lookup", parameters: { type: "object" } }] },
    ]);
    const log = await completedLog(res);
    expect(
      log.warnings.filter((w: { feature: string }) => w.feature === "tools[0].cacheControl"),
    ).toHaveLength(2);
  });

  it("rule 8 + warnings: a boundary next to an explicit cachedContent creates nothing, is stripped and reported", async () => {
    const seenMade = stack.sim.requests.length;
    const made = await native(nativeWith("explicit", "make one", "1h"));
    expect(made.status).toBe(200);
    const name = lastGeneration(seenMade).cachedContent as string;
    const before = cacheCreates().length;
    const seen = stack.sim.requests.length;
    const res = await native({
      cachedContent: name,
      contents: [
        { role: "user", parts: [{ text: "earlier", cache_control: { type: "ephemeral" } }] },
        { role: "user", parts: [{ text: "use it" }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before);
    const sent = lastGeneration(seen);
    expect(sent.cachedContent).toBe(name);
    expect(hasCacheControl(sent)).toBe(false);
    const log = await completedLog(res);
    expect(log.warnings).toContainEqual(
      expect.objectContaining({ type: "dropped", message: expect.stringContaining(name) }),
    );
  });

  it("two simultaneous first requests with one cache key create one cache", async () => {
    const before = cacheCreates().length;
    const seen = stack.sim.requests.length;
    // A slow create (the directive is in the prefix, so only the create waits) keeps both
    // requests in flight while the cache is being made.
    const body = (live: string) => nativeWith("[[fault:latency=300]] single-flight", live);
    const [a, b] = await Promise.all([native(body("one?")), native(body("two?"))]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(cacheCreates()).toHaveLength(before + 1);
    const names = generationsSince(seen).map((r) => (r.body as Json).cachedContent);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^cachedContents\//);
    expect(names[1]).toBe(names[0]);
    for (const res of [a, b]) {
      expect(res.json.data.usageMetadata.cachedContentTokenCount).toBeGreaterThan(1000);
    }
    // The storage is charged once, to the request that made the cache.
    const rows = [await rowOf(a), await rowOf(b)];
    const withStorage = rows.filter(
      (row, i) => row.credits > credits(flashTokens([a, b][i]!.json.data.usageMetadata)),
    );
    expect(withStorage).toHaveLength(1);
  });

  it("rule 10: the call that creates a cache pays its storage; a call reusing it does not", async () => {
    const seen = stack.sim.requests.length;
    const first = await native(nativeWith("storage-once", "one?"));
    const name = lastGeneration(seen).cachedContent as string;
    const second = await native(nativeWith("storage-once", "two?"));
    expect(lastGeneration(seen).cachedContent).toBe(name);
    const storage: [number, number] = [(await cacheTokens(name)) * (5 / 60), FLASH.storage];
    const firstUsage = first.json.data.usageMetadata;
    expect((await rowOf(first)).credits).toBe(credits([...flashTokens(firstUsage), storage]));
    const secondUsage = second.json.data.usageMetadata;
    expect(secondUsage.cachedContentTokenCount).toBeGreaterThan(1000);
    expect((await rowOf(second)).credits).toBe(credits(flashTokens(secondUsage)));
  });

  it("rule 10: a cache created for a call that then fails is charged its storage, and reused later", async () => {
    const seen = stack.sim.requests.length;
    const failed = await native(nativeWith("storage-failed", "go [[fault:status=400]]"));
    expect(failed.status).toBe(400);
    expect(failed.json.error).toMatchObject({ status: "INVALID_ARGUMENT" });
    const name = lastGeneration(seen).cachedContent as string;
    expect(name).toMatch(/^cachedContents\//);
    const row = await rowOf(failed);
    expect(row.status).toBe(400);
    expect(row.promptTokens).toBe(0);
    expect(row.credits).toBe(credits([[(await cacheTokens(name)) * (5 / 60), FLASH.storage]]));
    const before = cacheCreates().length;
    const retry = await native(nativeWith("storage-failed", "go"));
    expect(retry.status).toBe(200);
    expect(cacheCreates()).toHaveLength(before);
    expect(lastGeneration(seen).cachedContent).toBe(name);
  });
});

describe("chat boundaries through the gateway (rules 2 and 6)", () => {
  it.each(["txtA-5", "txtB-sonnet-4-6", "txtC-3.6-flash"])(
    "rule 2: a boundary on the last message runs %s in ordinary mode",
    async (model) => {
      const before = cacheCreates().length;
      const seen = stack.sim.requests.length;
      const res = await chat({
        model,
        messages: [
          { role: "system", content: "You answer chat questions." },
          {
            role: "user",
            content: [
              { type: "text", text: `last-${model} ${LONG}`, cache_control: { type: "ephemeral" } },
            ],
          },
        ],
      });
      expect(res.status).toBe(200);
      expect(cacheCreates()).toHaveLength(before);
      const sent = lastGeneration(seen);
      expect(hasCacheControl(sent)).toBe(false);
      expect(sent.prompt_cache_key).toBeUndefined();
      expect(sent.cachedContent).toBeUndefined();
      expect(await completedLog(res)).toMatchObject({
        cache: "ordinary",
        cacheReason: "no-live-message",
      });
    },
  );

  it("rule 6: mixed ttls are a 400 naming the field", async () => {
    const seen = stack.sim.requests.length;
    const res = await chat({
      model: "txtC-3.6-flash",
      messages: [
        {
          role: "user",
          content: [{ type: "text", text: "a", cache_control: { type: "ephemeral", ttl: "5m" } }],
        },
        { role: "assistant", content: "b" },
        {
          role: "user",
          content: [{ type: "text", text: "c", cache_control: { type: "ephemeral", ttl: "1h" } }],
        },
        { role: "user", content: "d" },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({
      code: 400,
      type: "invalid_request_error",
      param: "messages[2].content[0].cache_control.ttl",
      message: expect.stringContaining("messages[2].content[0].cache_control.ttl"),
    });
    expect(stack.sim.requests.length).toBe(seen);
  });
});
