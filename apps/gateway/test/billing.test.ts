import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TokenRow, UsageLogRow } from "../src/storage/store.ts";
import {
  auth,
  eventuallyAsync,
  KEY,
  postJson,
  type Stack,
  startStack,
  tokenRow as tokenRowOf,
} from "./stack.ts";
import { stackDatabases } from "./storage/drivers.ts";
import { REQUEST } from "./wire.ts";

// Hand-computed prices (USD per 1M tokens x 500000 credits per USD, per token):
// txtA-5 input 1.25 -> 0.625, output 10 -> 5; txtB-sonnet-4-6 input 3 -> 1.5, output 15 -> 7.5.
const TXTA5 = { input: 0.625, output: 5 };
const SONNET = { input: 1.5, output: 7.5 };
const credits = (price: { input: number; output: number }, prompt: number, completion: number) =>
  Math.ceil(prompt * price.input + completion * price.output);

const LIMITED = "sk-bill-limited";
const TINY = "sk-bill-tiny";
const POOR = "sk-bill-poor";
const RPM = "sk-bill-rpm";
const RPM_NATIVE = "sk-bill-rpm-native";
const TPM = "sk-bill-tpm";
const BALANCE_RPM = "sk-bill-balance-rpm";
const FILTERS = "sk-bill-filters";
const EXPIRED = "sk-bill-expired";
const LEASED = "sk-bill-leased";

let stack: Stack;
const url = (path: string) => `${stack.gateway.url}${path}`;
const services = () => stack.gateway.services;
const flush = () => services().accounting!.flush();

const tokenRow = (key: string): Promise<TokenRow> => tokenRowOf(stack, key);

async function logsOf(tokenName: string): Promise<UsageLogRow[]> {
  await flush();
  const page = await services().store.queryLogs(
    { userId: (await tokenRow(KEY)).userId, tokenName },
    { offset: 0, limit: 1000 },
  );
  return page.items;
}

const chat = (text: string, extra: Record<string, unknown> = {}) => ({
  model: "txtA-5",
  messages: [{ role: "user", content: text }],
  max_tokens: 50,
  ...extra,
});

beforeAll(async () => {
  stack = await startStack(
    {
      users: [
        { id: "alice", quota: 1_000_000 },
        { id: "poor", quota: 100 },
      ],
      tokens: [
        { key: KEY, user: "alice", unlimited: true, name: "unlimited" },
        { key: LIMITED, user: "alice", quota: 200_000, name: "limited" },
        { key: TINY, user: "alice", quota: 10, name: "tiny" },
        { key: POOR, user: "poor", quota: 1_000_000, name: "poor" },
        { key: RPM, user: "alice", unlimited: true, name: "rpm", rate_limit: { rpm: 2 } },
        {
          key: RPM_NATIVE,
          user: "alice",
          unlimited: true,
          name: "rpm-native",
          rate_limit: { rpm: 1 },
        },
        { key: TPM, user: "alice", unlimited: true, name: "tpm", rate_limit: { tpm: 40 } },
        {
          key: BALANCE_RPM,
          user: "alice",
          unlimited: true,
          name: "balance-rpm",
          rate_limit: { rpm: 1 },
        },
        { key: FILTERS, user: "alice", unlimited: true, name: "filters" },
        { key: EXPIRED, user: "alice", unlimited: true, expires_at: "2020-01-01T00:00:00Z" },
        { key: LEASED, user: "alice", quota: 10_000_000, name: "leased" },
      ],
    },
    // Leases stay until a flush: the balance tests read them while they are there.
    { leases: { idleMs: 10 * 60_000 } },
  );
});
afterAll(async () => {
  await stack?.close();
});

describe("balances", () => {
  it("a limited token: remaining and used, in USD and credits", async () => {
    const res = await fetch(url("/v1/balance"), { headers: auth(TINY) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      success: true,
      remain_balance: 0.00002,
      remain_credits: 10,
      used_balance: 0,
      used_credits: 0,
      unlimited_quota: false,
    });
    const alias = await fetch(url("/balance"), { headers: auth(TINY) });
    expect(await alias.json()).toMatchObject({ remain_credits: 10 });
  });

  it("an unlimited token: -1 for both remaining fields", async () => {
    const res = await fetch(url("/v1/balance"), { headers: auth(KEY) });
    expect(await res.json()).toMatchObject({
      success: true,
      remain_balance: -1,
      remain_credits: -1,
      unlimited_quota: true,
    });
  });

  it("the user balance, on both paths", async () => {
    for (const path of ["/v1/user/balance", "/user/balance"]) {
      const res = await fetch(url(path), { headers: auth(POOR) });
      expect(await res.json()).toEqual({
        success: true,
        remain_balance: 0.0002,
        remain_credits: 100,
        used_balance: 0,
        used_credits: 0,
      });
    }
  });

  it("this instance's free lease is not counted as spent: only the calls' charges are", async () => {
    const res = await postJson(url("/v1/chat/completions"), chat("lease me"), auth(LEASED));
    expect(res.status).toBe(200);
    const usage = res.json.data.usage;
    const cost = credits(TXTA5, usage.prompt_tokens, usage.completion_tokens);
    await eventuallyAsync(
      async () => {
        await services().accounting!.writePending();
        return (
          await services().store.queryLogs(
            { userId: "alice", tokenName: "leased" },
            { offset: 0, limit: 10 },
          )
        ).items;
      },
      (rows) => rows.length === 1,
    );
    // The database still holds this instance's lease on the token: several holds' worth.
    const id = (await tokenRow(LEASED)).id;
    const lease = (await services().store.listLeases()).find(
      (l) => l.kind === "token" && l.subject === String(id),
    );
    expect(lease?.amount).toBeGreaterThan(0);
    const balance = await (await fetch(url("/v1/balance"), { headers: auth(LEASED) })).json();
    expect(balance).toMatchObject({ remain_credits: 10_000_000 - cost, used_credits: cost });
    const list = await (
      await fetch(url("/api/token?page_size=100"), { headers: auth(LEASED) })
    ).json();
    expect(list.data.items.find((t: { id: number }) => t.id === id)).toMatchObject({
      remain_quota: 10_000_000 - cost,
    });
  });

  it("rate failures use the standard error envelope, with Retry-After", async () => {
    expect((await fetch(url("/v1/balance"), { headers: auth(BALANCE_RPM) })).status).toBe(200);
    for (const path of ["/v1/balance", "/balance", "/v1/user/balance", "/user/balance"]) {
      const res = await fetch(url(path), { headers: auth(BALANCE_RPM) });
      expect(res.status, path).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await res.json()).toEqual({
        error: {
          code: 429,
          message: expect.stringMatching(/rate limit/),
          type: "rate_limit_error",
        },
      });
    }
  });

  it("auth failures use the standard error envelope", async () => {
    const res = await fetch(url("/v1/balance"), { headers: auth("sk-nope") });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { code: 401, message: "invalid API key", type: "authentication_error" },
    });
  });

  it("a missing token record: {success: false, message}", async () => {
    const made = await postJson(url("/api/token"), { name: "doomed", remain_quota: 5 }, auth(KEY));
    const key = made.json.data.key as string;
    expect((await fetch(url("/v1/balance"), { headers: auth(key) })).status).toBe(200);
    // Gone from the database while this instance still trusts its cached copy of the key.
    await services().store.deleteToken(made.json.data.id, "alice");
    const res = await fetch(url("/v1/balance"), { headers: auth(key) });
    const body = await res.json();
    expect(body).toEqual({ success: false, message: expect.any(String) });
    expect(body.message).toMatch(/^Failed to get token information/);
  });
});

describe("a balance record that cannot be read", () => {
  // The API reference's balance failure body is `{success: false, message}` whenever the quota
  // "cannot be retrieved"; a store failure used to surface as the standard 500 body instead.
  const failing = (code: string) =>
    Object.assign(new Error(`connect ${code} 10.0.0.1:5432`), { code });
  const cases = [
    ["/v1/balance", "getToken", /^Failed to get token information: /],
    ["/balance", "getToken", /^Failed to get token information: /],
    ["/v1/user/balance", "getUser", /^Failed to get user quota: /],
    ["/user/balance", "getUser", /^Failed to get user quota: /],
  ] as const;

  for (const [path, method, prefix] of cases) {
    it(`${path}: an outage is a 503 with Retry-After, a bug a 500, both {success: false, message}`, async () => {
      expect((await fetch(url(path), { headers: auth(KEY) })).status).toBe(200);
      const store = services().store as unknown as Record<string, unknown>;
      const original = store[method];
      try {
        for (const [code, status] of [
          ["ECONNREFUSED", 503],
          ["EWHATEVER", 500],
        ] as const) {
          store[method] = async () => {
            throw failing(code);
          };
          const res = await fetch(url(path), { headers: auth(KEY) });
          expect(res.status).toBe(status);
          expect(res.headers.get("retry-after")).toBe(status === 503 ? "5" : null);
          const body = await res.json();
          expect(body).toEqual({ success: false, message: expect.stringMatching(prefix) });
          expect(body.message).not.toMatch(/10\.0\.0\.1|ECONNREFUSED|EWHATEVER/);
        }
      } finally {
        store[method] = original;
      }
      expect((await fetch(url(path), { headers: auth(KEY) })).status).toBe(200);
    });
  }
});

describe("charging calls", () => {
  it("a call is charged its real usage on the token and its user, and logged once", async () => {
    const before = await tokenRow(LIMITED);
    const userBefore = await services().store.getUser("alice");
    const res = await postJson(url("/v1/chat/completions"), chat("count me"), auth(LIMITED));
    expect(res.status).toBe(200);
    const usage = res.json.data.usage;
    const expected = credits(TXTA5, usage.prompt_tokens, usage.completion_tokens);
    const logs = await eventuallyAsync(
      () => logsOf("limited"),
      (rows) => rows.length === 1,
    );
    expect(logs[0]).toMatchObject({
      requestId: res.headers.get("x-request-id"),
      userId: "alice",
      tokenName: "limited",
      model: "txtA-5",
      channel: "oa",
      endpoint: "chat",
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      credits: expected,
      cost: expected / 500_000,
      stream: false,
      status: 200,
    });
    const after = await tokenRow(LIMITED);
    expect(after.used - before.used).toBe(expected);
    expect(after.reserved).toBe(0);
    expect((await services().store.getUser("alice"))!.used - userBefore!.used).toBe(expected);
  });

  it("an unlimited token is not held but its user is charged and its use recorded", async () => {
    const before = await tokenRow(KEY);
    const userBefore = (await services().store.getUser("alice"))!.used;
    const res = await postJson(url("/v1/chat/completions"), chat("free for me"), auth(KEY));
    const usage = res.json.data.usage;
    const expected = credits(TXTA5, usage.prompt_tokens, usage.completion_tokens);
    await eventuallyAsync(
      () => tokenRow(KEY),
      (row) => row.used - before.used === expected,
    );
    expect((await services().store.getUser("alice"))!.used - userBefore).toBe(expected);
    const balance = await (await fetch(url("/v1/balance"), { headers: auth(KEY) })).json();
    expect(balance).toMatchObject({ remain_credits: -1, used_credits: before.used + expected });
  });

  it("a stream is charged from its final usage event", async () => {
    const before = await tokenRow(LIMITED);
    const res = await postJson(
      url("/v1/messages"),
      {
        model: "txtB-sonnet-4-6",
        max_tokens: 200,
        stream: true,
        messages: [{ role: "user", content: "[[len:30]] stream me" }],
      },
      { "x-api-key": LIMITED },
    );
    expect(res.status).toBe(200);
    const rows = await eventuallyAsync(
      () => logsOf("limited"),
      (list) => list.some((r) => r.stream),
    );
    const row = rows.find((r) => r.stream)!;
    expect(row.completionTokens).toBeGreaterThanOrEqual(30);
    expect(row.credits).toBe(credits(SONNET, row.promptTokens, row.completionTokens));
    expect(row).toMatchObject({ endpoint: "messages", channel: "an", status: 200 });
    expect((await tokenRow(LIMITED)).used - before.used).toBe(row.credits);
  });

  it("a client that disconnects mid-stream is charged what the upstream produced", async () => {
    const before = await tokenRow(LIMITED);
    const controller = new AbortController();
    const res = await fetch(url("/v1/chat/completions"), {
      method: "POST",
      headers: { ...auth(LIMITED), "content-type": "application/json" },
      body: JSON.stringify(
        chat("[[fault:chunk-delay=5]] [[len:60]] go", { stream: true, max_tokens: 400 }),
      ),
      signal: controller.signal,
    });
    await res.body!.getReader().read();
    controller.abort();
    const rows = await eventuallyAsync(
      () => logsOf("limited"),
      (list) => list.some((r) => r.endpoint === "chat" && r.stream),
    );
    const row = rows.find((r) => r.endpoint === "chat" && r.stream)!;
    expect(row.completionTokens).toBeGreaterThan(50);
    expect(row.credits).toBe(credits(TXTA5, row.promptTokens, row.completionTokens));
    expect((await tokenRow(LIMITED)).used - before.used).toBe(row.credits);
  });

  it("an upstream failure is refunded in full and logged with its status", async () => {
    const before = await tokenRow(LIMITED);
    const res = await postJson(
      url("/v1/chat/completions"),
      chat("[[fault:status=500]] fail"),
      auth(LIMITED),
    );
    expect(res.status).toBe(502);
    const rows = await eventuallyAsync(
      () => logsOf("limited"),
      (list) => list.some((r) => r.status === 502),
    );
    expect(rows.find((r) => r.status === 502)).toMatchObject({ credits: 0, cost: 0 });
    const after = await tokenRow(LIMITED);
    expect(after.used).toBe(before.used);
    expect(after.reserved).toBe(0);
  });
});

describe("402 payment_required", () => {
  it("a token that cannot cover the hold, in each endpoint's envelope", async () => {
    const chatRes = await postJson(url("/v1/chat/completions"), chat("hi"), auth(TINY));
    expect(chatRes.status).toBe(402);
    expect(chatRes.json.error).toMatchObject({ code: 402, type: "payment_required" });
    const messages = await postJson(
      url("/v1/messages"),
      { model: "txtB-sonnet-4-6", max_tokens: 100, messages: [{ role: "user", content: "hi" }] },
      { "x-api-key": TINY },
    );
    expect(messages.status).toBe(402);
    expect(messages.json).toMatchObject({ type: "error", error: { type: "billing_error" } });
    const native = await postJson(
      url("/v1beta/models/txtC-2.5-pro:generateContent"),
      { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
      auth(TINY),
    );
    expect(native.status).toBe(402);
    expect(native.json.error).toMatchObject({ code: 402, status: "PAYMENT_REQUIRED" });
    const { path, body } = REQUEST.responses({ model: "txtA-5", text: "hi", stream: false });
    const responses = await postJson(url(path), body, auth(TINY));
    expect(responses.status).toBe(402);
    expect(responses.json).toEqual({
      error: { code: 402, message: expect.stringMatching(/quota/), type: "payment_required" },
    });
    const rows = await logsOf("tiny");
    expect(rows.map((r) => [r.endpoint, r.status, r.credits]).sort()).toEqual([
      ["chat", 402, 0],
      ["messages", 402, 0],
      ["native", 402, 0],
      ["responses", 402, 0],
    ]);
    expect((await tokenRow(TINY)).used).toBe(0);
  });

  it("a user that cannot cover it, even when the token could", async () => {
    const res = await postJson(url("/v1/chat/completions"), chat("hi"), auth(POOR));
    expect(res.status).toBe(402);
    expect(res.json.error.message).toMatch(/account/);
  });
});

describe("rate limits", () => {
  it("requests per minute: 429 rate_limit_error with Retry-After", async () => {
    for (let i = 0; i < 2; i++) {
      expect((await fetch(url("/v1/models"), { headers: auth(RPM) })).status).toBe(200);
    }
    const res = await postJson(url("/v1/chat/completions"), chat("again"), auth(RPM));
    expect(res.status).toBe(429);
    expect(res.json.error).toMatchObject({ code: 429, type: "rate_limit_error" });
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("tokens per minute: the tokens of finished calls count, and the next call waits", async () => {
    const first = await postJson(url("/v1/chat/completions"), chat("[[len:40]] spend"), auth(TPM));
    expect(first.status).toBe(200);
    const spent = first.json.data.usage.total_tokens as number;
    expect(spent).toBeGreaterThan(40);
    // The call's tokens are counted when it settles, just after its reply went out.
    const refused = await eventuallyAsync(
      () => postJson(url("/v1/chat/completions"), chat("again"), auth(TPM)),
      (res) => res.status === 429,
    );
    expect(refused.json.error).toMatchObject({ code: 429, type: "rate_limit_error" });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const balance = await fetch(url("/v1/balance"), { headers: auth(TPM) });
    expect(balance.status).toBe(429);
  });

  it("RESOURCE_EXHAUSTED on the native endpoint", async () => {
    const body = { contents: [{ role: "user", parts: [{ text: "hi" }] }] };
    const first = await postJson(
      url("/v1beta/models/txtC-2.5-pro:generateContent"),
      body,
      auth(RPM_NATIVE),
    );
    expect(first.status).toBe(200);
    const second = await postJson(
      url("/v1beta/models/txtC-2.5-pro:generateContent"),
      body,
      auth(RPM_NATIVE),
    );
    expect(second.status).toBe(429);
    expect(second.json.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
  });
});

describe("management API", () => {
  it("creates, lists, uses, updates, disables and deletes the caller's own tokens", async () => {
    const created = await postJson(
      url("/api/token"),
      { name: "made", remain_quota: 100_000 },
      auth(LIMITED),
    );
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({
      success: true,
      message: "",
      data: { name: "made", remain_quota: 100_000, unlimited_quota: false, expired_time: -1 },
    });
    const key = created.json.data.key as string;
    const id = created.json.data.id as number;
    expect(key).toMatch(/^sk-/);

    const list = await (
      await fetch(url("/api/token?p=1&page_size=100"), { headers: auth(LIMITED) })
    ).json();
    const listed = list.data.items.find((t: { id: number }) => t.id === id);
    expect(listed).toMatchObject({ name: "made", key_hint: created.json.data.key_hint });
    expect(JSON.stringify(list)).not.toContain(key);

    const used = await postJson(url("/v1/chat/completions"), chat("with the new key"), auth(key));
    expect(used.status).toBe(200);
    const logs = await eventuallyAsync(
      async () => {
        await flush();
        return (await fetch(url("/api/log/self?token_name=made"), { headers: auth(key) })).json();
      },
      (body) => body.data.total === 1,
    );
    expect(logs.data.items[0]).toMatchObject({
      token_name: "made",
      model_name: "txtA-5",
      status: 200,
    });
    const stat = await (
      await fetch(url("/api/log/self/stat?token_name=made"), { headers: auth(key) })
    ).json();
    expect(stat).toMatchObject({
      success: true,
      data: { requests: 1, quota: logs.data.items[0].quota },
    });

    const disabled = await fetch(url("/api/token"), {
      method: "PUT",
      headers: { ...auth(LIMITED), "content-type": "application/json" },
      body: JSON.stringify({ id, status: "disabled", remain_quota: 5 }),
    });
    expect(await disabled.json()).toMatchObject({
      success: true,
      data: { status: "disabled", remain_quota: 5 },
    });
    const refused = await postJson(url("/v1/chat/completions"), chat("no"), auth(key));
    expect(refused.status).toBe(401);
    expect(refused.json.error.message).toBe("API key is disabled");

    const other = await fetch(url(`/api/token/${id}`), { headers: auth(POOR) });
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ success: false, message: "token not found", data: null });

    const deleted = await fetch(url(`/api/token/${id}`), {
      method: "DELETE",
      headers: auth(LIMITED),
    });
    expect(await deleted.json()).toEqual({ success: true, message: "", data: null });
    expect((await fetch(url(`/api/token/${id}`), { headers: auth(LIMITED) })).status).toBe(404);
  });

  it("refuses bad bodies and queries with success: false naming the field", async () => {
    const bad = await postJson(url("/api/token"), { name: "", remain_quota: -1 }, auth(LIMITED));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ success: false, data: null });
    expect(bad.json.message).toMatch(/name/);
    expect(bad.json.message).toMatch(/remain_quota/);
    const query = await fetch(url("/api/log/self?page_size=0"), { headers: auth(LIMITED) });
    expect(query.status).toBe(400);
    expect(await query.json()).toEqual({
      success: false,
      message: expect.stringMatching(/page_size/),
      data: null,
    });
    const unauthenticated = await fetch(url("/api/user/self"), { headers: auth("sk-nope") });
    expect(unauthenticated.status).toBe(401);
    expect(await unauthenticated.json()).toEqual({
      success: false,
      message: "invalid API key",
      data: null,
    });
  });

  it("filters logs by model and time range over HTTP, in the list and its totals", async () => {
    const before = Math.floor(Date.now() / 1000);
    const a = await postJson(url("/v1/chat/completions"), chat("filter me"), auth(FILTERS));
    const b = await postJson(
      url("/v1/messages"),
      { model: "txtB-sonnet-4-6", max_tokens: 50, messages: [{ role: "user", content: "me too" }] },
      { "x-api-key": FILTERS },
    );
    expect([a.status, b.status]).toEqual([200, 200]);
    const after = Math.ceil(Date.now() / 1000);
    const list = async (query: string) => {
      await flush();
      const res = await fetch(url(`/api/log/self?token_name=filters&${query}`), {
        headers: auth(FILTERS),
      });
      const body = await res.json();
      return (body.data.items as { model_name: string }[]).map((i) => i.model_name);
    };
    const stat = async (query: string) =>
      (
        await (
          await fetch(url(`/api/log/self/stat?token_name=filters&${query}`), {
            headers: auth(FILTERS),
          })
        ).json()
      ).data.requests;
    await eventuallyAsync(
      () => list(""),
      (models) => models.length === 2,
    );
    const range = `start_timestamp=${before}&end_timestamp=${after}`;
    expect(await list(range)).toEqual(["txtB-sonnet-4-6", "txtA-5"]);
    expect(await stat(range)).toBe(2);
    expect(await list(`${range}&model_name=txtA-5`)).toEqual(["txtA-5"]);
    expect(await stat(`${range}&model_name=txtB-sonnet-4-6`)).toBe(1);
    expect(await list(`end_timestamp=${before - 1}`)).toEqual([]);
    expect(await list(`start_timestamp=${after + 1}`)).toEqual([]);
    expect(await stat(`start_timestamp=${after + 1}`)).toBe(0);
    expect(await list("model_name=txtC-2.5-pro")).toEqual([]);
  });

  it("reports the caller's user", async () => {
    const res = await (await fetch(url("/api/user/self"), { headers: auth(POOR) })).json();
    expect(res).toEqual({
      success: true,
      message: "",
      data: {
        id: "poor",
        quota: 100,
        used_quota: 0,
        reserved_quota: 0,
        remain_quota: 100,
        unlimited_quota: false,
        remain_balance: 0.0002,
        used_balance: 0,
        unit: "USD",
        role: "user",
      },
    });
  });

  it("an expired key is refused with 401", async () => {
    const res = await postJson(url("/v1/chat/completions"), chat("late"), auth(EXPIRED));
    expect(res.status).toBe(401);
    expect(res.json.error.message).toBe("API key has expired");
  });
});

// The README's overdraft bound: a call's real cost exceeds its hold only for media or provider-run
// tool output above the per-item maxima, or output above a model's documented maximum. For the
// text calls below, to models with a known maximum output, the bound is zero: a token never goes
// below zero, with or without max tokens.
const TEXT_OVERDRAFT_BOUND = 0;

const drivers = await stackDatabases();

describe.each(drivers)("200 concurrent calls ($name)", ({ databaseUrl }) => {
  const CAPPED = "sk-conc-capped";
  const OPEN = "sk-conc-open";
  let conc: Stack;
  const at = (path: string) => `${conc.gateway.url}${path}`;

  beforeAll(async () => {
    conc = await startStack(
      {
        databaseUrl,
        // Tiny, so a hold sized by it could never cover these replies: only the model's own
        // maximum output (65,536 tokens for txtD-v3.2) keeps the calls without max tokens covered.
        billing: { default_output_reserve: 16 },
        users: [{ id: "conc", quota: 100_000_000 }],
        tokens: [
          { key: CAPPED, user: "conc", quota: 3_000, name: "capped" },
          // Below what the 200 replies cost together (about 100 credits each), so some calls are
          // refused whatever the timing: a hold (the model's whole maximum output, about 13,800
          // credits) fits only while enough is left.
          { key: OPEN, user: "conc", quota: 20_000, name: "open" },
        ],
      },
      // 200 calls at once on a loaded two-core machine can stall the simulator past the stack's
      // 2 s upstream deadlines; these tests are about holds, not timeouts.
      { timeouts: { headersMs: 30_000, bodyMs: 30_000, connectMs: 5_000 } },
    );
  });
  afterAll(async () => {
    await conc?.close();
  });

  async function fire(key: string, body: (i: number) => unknown) {
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        postJson(at("/v1/chat/completions"), body(i), auth(key)),
      ),
    );
    const statuses = results.map((r) => r.status);
    // Served or refused for quota, nothing else (named when not, to tell a timeout from a bug).
    expect(statuses.filter((s) => s !== 200 && s !== 402)).toEqual([]);
    const refused = statuses.filter((s) => s === 402).length;
    expect(refused).toBeGreaterThan(0);
    expect(refused).toBeLessThan(200);
    for (const r of results.filter((x) => x.status === 402)) {
      expect(r.json.error).toMatchObject({ code: 402, type: "payment_required" });
    }
    return refused;
  }

  async function ledger(tokenName: string) {
    const services = conc.gateway.services;
    const rows = await eventuallyAsync(
      async () => {
        await services.accounting!.flush();
        return (
          await services.store.queryLogs({ userId: "conc", tokenName }, { offset: 0, limit: 1000 })
        ).items;
      },
      (list) => list.length === 200,
    );
    const token = await tokenRowOf(conc, tokenName === "capped" ? CAPPED : OPEN);
    // Flushed: every free lease went back; none is left behind in the database.
    expect(await services.store.listLeases()).toEqual([]);
    return { rows, token, logged: rows.reduce((sum, r) => sum + r.credits, 0) };
  }

  it("with max_tokens: each refused call got 402, charges equal logged costs, never overspent", async () => {
    const refused = await fire(CAPPED, (i) => chat(`call ${i}`, { max_tokens: 20 }));
    const { rows, token, logged } = await ledger("capped");
    expect(token.used).toBe(logged);
    expect(token.reserved).toBe(0);
    expect(rows.filter((r) => r.status === 402)).toHaveLength(refused);
    expect(token.quota - token.used).toBeGreaterThanOrEqual(-TEXT_OVERDRAFT_BOUND);
  });

  it("without max_tokens: the hold is the model's maximum output, so the token stays within the bound", async () => {
    const refused = await fire(OPEN, (i) => ({
      model: "txtD-v3.2",
      messages: [{ role: "user", content: `[[len:400]] call ${i}` }],
    }));
    const { rows, token, logged } = await ledger("open");
    const served = rows.filter((r) => r.status === 200);
    expect(served.length + refused).toBe(200);
    // Each reply is far beyond default_output_reserve (16): a hold sized by it would overdraw.
    for (const row of served) expect(row.completionTokens).toBeGreaterThan(400);
    expect(token.used).toBe(logged);
    expect(token.reserved).toBe(0);
    expect(token.quota - token.used).toBeGreaterThanOrEqual(-TEXT_OVERDRAFT_BOUND);
    const user = (await conc.gateway.services.store.getUser("conc"))!;
    expect(user.reserved).toBe(0);
    expect((await conc.gateway.services.store.logStats({ userId: "conc" })).credits).toBe(
      user.used,
    );
  });
});
