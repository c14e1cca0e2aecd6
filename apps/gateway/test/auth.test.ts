import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, KEY, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import type { Json } from "./wire.ts";

// Each endpoint with a minimal valid body, the credentials docs/api-reference.md accepts on it, and the shape of
// its 401 body.
const ENDPOINTS = [
  {
    name: "chat",
    path: "/v1/chat/completions",
    body: { model: "txtA-5", messages: [{ role: "user", content: "hi" }] },
    extra: [] as Record<string, string>[],
    unauthorized: (json: Json) =>
      expect(json).toEqual({
        error: { code: 401, message: expect.any(String), type: "authentication_error" },
      }),
  },
  {
    name: "chat (api prefix)",
    path: "/api/v1/chat/completions",
    body: { model: "txtA-5", messages: [{ role: "user", content: "hi" }] },
    extra: [],
    unauthorized: (json: Json) =>
      expect(json.error).toMatchObject({ code: 401, type: "authentication_error" }),
  },
  {
    name: "responses",
    path: "/v1/responses",
    body: { model: "txtA-5", input: "hi" },
    extra: [],
    unauthorized: (json: Json) =>
      expect(json.error).toMatchObject({ code: 401, type: "authentication_error" }),
  },
  {
    name: "messages",
    path: "/v1/messages",
    body: { model: "txtB-sonnet-4-6", max_tokens: 16, messages: [{ role: "user", content: "hi" }] },
    extra: [{ "x-api-key": KEY }, { "x-api-key": KEY, "anthropic-version": "2023-06-01" }],
    unauthorized: (json: Json) =>
      expect(json).toMatchObject({
        type: "error",
        error: { type: "authentication_error", message: expect.stringMatching(/request id: req_/) },
      }),
  },
  {
    name: "native v1beta",
    path: "/v1beta/models/txtC-2.5-pro:generateContent",
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    extra: [{ "x-goog-api-key": KEY }, { "x-vendor-api-key": KEY }],
    unauthorized: (json: Json) =>
      expect(json).toEqual({
        error: { code: 401, message: expect.any(String), status: "UNAUTHENTICATED" },
      }),
  },
  {
    name: "native v1",
    path: "/v1/models/txtC-2.5-pro:generateContent",
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
    extra: [{ "x-goog-api-key": KEY }],
    unauthorized: (json: Json) =>
      expect(json.error).toMatchObject({ code: 401, status: "UNAUTHENTICATED" }),
  },
];

describe("authentication", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  for (const endpoint of ENDPOINTS) {
    it(`${endpoint.name}: 401 without a key, in the endpoint's envelope`, async () => {
      const res = await postJson(stack.gateway.url + endpoint.path, endpoint.body, {});
      expect(res.status).toBe(401);
      endpoint.unauthorized(res.json);
      expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    });

    it(`${endpoint.name}: 401 with a wrong key`, async () => {
      const res = await postJson(
        stack.gateway.url + endpoint.path,
        endpoint.body,
        auth("sk-wrong"),
      );
      expect(res.status).toBe(401);
      endpoint.unauthorized(res.json);
    });

    it(`${endpoint.name}: accepts Bearer and its own key headers`, async () => {
      for (const headers of [auth(), ...endpoint.extra]) {
        const res = await postJson(stack.gateway.url + endpoint.path, endpoint.body, headers);
        expect(res.status, JSON.stringify(headers)).toBe(200);
      }
    });
  }

  it("native: accepts ?key= in the query", async () => {
    const res = await postJson(
      `${stack.gateway.url}/v1beta/models/txtC-2.5-pro:generateContent?key=${KEY}`,
      ENDPOINTS[4]!.body,
      {},
    );
    expect(res.status).toBe(200);
  });

  it("x-api-key is not accepted outside messages and native keys not outside native", async () => {
    const chat = ENDPOINTS[0]!;
    for (const headers of [{ "x-api-key": KEY }, { "x-goog-api-key": KEY }]) {
      const res = await postJson(stack.gateway.url + chat.path, chat.body, headers);
      expect(res.status).toBe(401);
    }
    const res = await postJson(
      `${stack.gateway.url}/v1/chat/completions?key=${KEY}`,
      chat.body,
      {},
    );
    expect(res.status).toBe(401);
  });

  // Anthropic's SDKs list models with x-api-key, Gemini's with x-goog-api-key or ?key=.
  it.each([
    ["Bearer", auth(), ""],
    ["x-api-key", { "x-api-key": KEY }, ""],
    ["x-goog-api-key", { "x-goog-api-key": KEY }, ""],
    ["x-vendor-api-key", { "x-vendor-api-key": KEY }, ""],
    ["?key=", {}, `?key=${KEY}`],
  ])("GET /v1/models and /v1/models/{id} take the key as %s", async (_name, headers, query) => {
    const list = await fetch(`${stack.gateway.url}/v1/models${query}`, { headers });
    expect(list.status).toBe(200);
    const ids = ((await list.json()) as { data: { id: string }[] }).data.map((m) => m.id);
    expect(ids).toContain("txtA-5");
    const one = await fetch(`${stack.gateway.url}/v1/models/txtA-5${query}`, { headers });
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({
      id: "txtA-5",
      object: "model",
      created: expect.any(Number),
      owned_by: "openai",
    });
  });

  it("GET /v1/models/{id}: 404 in the standard envelope for an unknown model, 401 without a key", async () => {
    const missing = await fetch(`${stack.gateway.url}/v1/models/no-such-model`, {
      headers: { "x-api-key": KEY },
    });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as Json).error).toMatchObject({ code: 404 });
    const wrong = await fetch(`${stack.gateway.url}/v1/models/txtA-5`, {
      headers: { "x-api-key": "sk-wrong" },
    });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as Json).error.type).toBe("authentication_error");
  });

  it("GET /v1/models needs a key", async () => {
    const res = await fetch(`${stack.gateway.url}/v1/models`);
    expect(res.status).toBe(401);
    expect((await res.json()).error.type).toBe("authentication_error");
  });

  it("never writes a client key or an upstream key to the logs", async () => {
    await postJson(
      `${stack.gateway.url}/v1beta/models/txtC-2.5-pro:generateContent?key=${KEY}`,
      ENDPOINTS[4]!.body,
      {},
    );
    await postJson(
      stack.gateway.url + ENDPOINTS[0]!.path,
      ENDPOINTS[0]!.body,
      auth("sk-wrong-but-secret"),
    );
    const text = stack.logText();
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("sk-wrong-but-secret");
    expect(text).not.toContain(UPSTREAM_KEY);
  });
});
