import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, LIMITED_KEY, postJson, type Stack, startStack } from "./stack.ts";

describe("request errors in each endpoint's envelope", () => {
  let stack: Stack;
  const cap = 4096;
  beforeAll(async () => {
    stack = await startStack({ limits: { max_body_bytes: cap } });
  });
  afterAll(() => stack.close());
  const url = (path: string) => stack.gateway.url + path;

  it("unknown model: 404 not_found_error on chat and responses", async () => {
    const chat = await postJson(url("/v1/chat/completions"), {
      model: "nope-1",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(chat.status).toBe(404);
    expect(chat.json.error).toMatchObject({ code: 404, type: "not_found_error" });
    const responses = await postJson(url("/v1/responses"), { model: "nope-1", input: "hi" });
    expect(responses.status).toBe(404);
    expect(responses.json.error).toMatchObject({ code: 404, type: "not_found_error" });
  });

  it("unknown model: 404 with code model_not_found on messages", async () => {
    const res = await postJson(url("/v1/messages"), {
      model: "nope-1",
      max_tokens: 8,
      messages: [{ role: "user", content: "hi" }],
    });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      error: {
        code: "model_not_found",
        message: expect.stringMatching(/nope-1.*request id: req_/),
        param: "model",
        type: "service_error",
      },
    });
  });

  it("unknown model: 404 NOT_FOUND on native", async () => {
    const res = await postJson(url("/v1beta/models/nope-1:generateContent"), {
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
    });
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      error: { code: 404, message: expect.any(String), status: "NOT_FOUND" },
    });
  });

  it("a model of the catalogue that no channel serves is not found either", async () => {
    const res = await postJson(url("/v1/chat/completions"), {
      model: "txtB-opus-4-7",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(res.status).toBe(404);
  });

  it("a model outside the token's allow-list is refused with 403", async () => {
    const res = await postJson(
      url("/v1/chat/completions"),
      { model: "txtD-v3.2", messages: [{ role: "user", content: "hi" }] },
      auth(LIMITED_KEY),
    );
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({ code: 403, type: "permission_error" });
  });

  it("bad JSON: 400 in each envelope", async () => {
    const chat = await postJson(url("/v1/chat/completions"), "{not json");
    expect(chat.status).toBe(400);
    expect(chat.json.error).toMatchObject({ code: 400, type: "invalid_request_error" });
    const messages = await postJson(url("/v1/messages"), "{not json");
    expect(messages.status).toBe(400);
    expect(messages.json).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error" },
    });
    const native = await postJson(url("/v1beta/models/txtC-2.5-pro:generateContent"), "[1,2");
    expect(native.status).toBe(400);
    expect(native.json.error).toMatchObject({ code: 400, status: "INVALID_ARGUMENT" });
  });

  it("a JSON body that is not an object is refused with 400", async () => {
    const res = await postJson(url("/v1/chat/completions"), "[]");
    expect(res.status).toBe(400);
  });

  it("a body the codec rejects is a 400 naming the field", async () => {
    const res = await postJson(url("/v1/chat/completions"), { model: "txtA-5", messages: "hi" });
    expect(res.status).toBe(400);
    expect(res.json.error.type).toBe("invalid_request_error");
    expect(res.json.error.message).toMatch(/messages/);
  });

  it.each([
    [{ n: 0 }, "n: must be at least 1 (got 0)"],
    [{ max_tokens: 0 }, "max_tokens: must be at least 1 (got 0)"],
    [{ max_tokens: -1 }, "max_tokens: must be at least 1 (got -1)"],
    [{ n: "2" }, "n: must be a bare JSON integer (a quoted number is not accepted)"],
  ])("chat %j: a 400 saying what is wrong with the number", async (field, message) => {
    const res = await postJson(url("/v1/chat/completions"), {
      model: "txtA-5",
      messages: [{ role: "user", content: "hi" }],
      ...field,
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ type: "invalid_request_error", message });
  });

  it.each([
    ["txtA-5", { contents: [{ role: "user", parts: [] }] }, "contents[0].parts"],
    [
      "txtC-2.5-pro",
      { contents: [{ parts: [{ inlineData: { mimeType: "image/png", data: "!!notbase64!!" } }] }] },
      "contents[0].parts[0].inlineData.data",
    ],
  ])(
    "native on %s: what Gemini refuses is a 400 INVALID_ARGUMENT naming the field",
    async (model, body, field) => {
      const res = await postJson(url(`/v1beta/models/${model}:generateContent`), body);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({
        error: {
          code: 400,
          message: expect.stringContaining(`${field}: `),
          status: "INVALID_ARGUMENT",
        },
      });
    },
  );

  it("body over the cap: 413 even when streamed without a length", async () => {
    const big = JSON.stringify({
      model: "txtA-5",
      messages: [{ role: "user", content: "x".repeat(cap) }],
    });
    const declared = await postJson(url("/v1/chat/completions"), big);
    expect(declared.status).toBe(413);
    expect(declared.json.error).toMatchObject({ code: 413, type: "invalid_request_error" });
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode("x".repeat(1024)));
        controller.close();
      },
    });
    const res = await fetch(url("/v1/messages"), {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(413);
    // docs/api-reference.md's 413 row: invalid_request_error, not Anthropic's request_too_large.
    expect((await res.json()).error.type).toBe("invalid_request_error");
  });

  it("a __proto__ key in a body is an unknown field like any other: it sets nothing", async () => {
    // JSON.parse makes `__proto__` an own field; copied by assignment it would become the
    // prototype of the copy, and `stream` or `model` would be read through it.
    const proto = '"__proto__":{"stream":true,"model":"nope-1","max_tokens":1}';
    const calls = [
      [
        "/v1/chat/completions",
        `{"model":"txtA-5","messages":[{"role":"user","content":"hi"}],${proto}}`,
      ],
      ["/v1/responses", `{"model":"txtA-5","input":"hi",${proto}}`],
      [
        "/v1/messages",
        `{"model":"txtB-sonnet-4-6","max_tokens":64,"messages":[{"role":"user","content":"hi"}],${proto}}`,
      ],
    ] as const;
    for (const [path, body] of calls) {
      const res = await postJson(url(path), body);
      expect(res.status, `${path} ${res.text}`).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(res.text, path).not.toContain("nope-1");
      expect(res.text, path).toMatch(/"model":"(txtA-5|txtB-sonnet-4-6)"/);
    }
    // A native body goes to Gemini as written, and Gemini refuses a field it does not know: the
    // refusal names it, so it travelled as a field.
    const native = await postJson(
      url("/v1beta/models/txtC-2.5-pro:generateContent"),
      `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],${proto}}`,
    );
    expect(native.status).toBe(400);
    expect(native.json.error).toMatchObject({
      status: "INVALID_ARGUMENT",
      message: expect.stringContaining("__proto__"),
    });
  });

  it("native: an unknown method is a 404 in the native envelope", async () => {
    const res = await postJson(url("/v1beta/models/txtC-2.5-pro:embedContent"), { contents: [] });
    expect(res.status).toBe(404);
    expect(res.json.error.status).toBe("NOT_FOUND");
  });

  it("an unknown route is a 404 in the standard envelope", async () => {
    const res = await postJson(url("/v1/nothing-here"), {});
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: 404, type: "not_found_error" });
  });
});
