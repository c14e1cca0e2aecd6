import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, LIMITED_KEY, postJson, type Stack, startStack } from "./stack.ts";
import { REQUEST } from "./wire.ts";

describe("envelopes", () => {
  let spec: Stack;
  let bare: Stack;
  beforeAll(async () => {
    [spec, bare] = await Promise.all([startStack(), startStack({ envelope: "bare" })]);
  });
  afterAll(async () => {
    await Promise.all([spec.close(), bare.close()]);
  });

  const chat = REQUEST.chat({ model: "txtA-5", text: "wrap", stream: false });
  const native = REQUEST.native({ model: "txtC-2.5-pro", text: "wrap", stream: false });
  const responses = REQUEST.responses({ model: "txtA-5", text: "wrap", stream: false });
  const messages = REQUEST.messages({ model: "txtB-sonnet-4-6", text: "wrap", stream: false });

  it("wraps chat, responses and native as {code: 200, data}; messages stays bare", async () => {
    for (const { path, body } of [chat, native, responses]) {
      const res = await postJson(spec.gateway.url + path, body);
      expect(Object.keys(res.json).sort(), path).toEqual(["code", "data"]);
      expect(res.json.code).toBe(200);
    }
    const res = await postJson(spec.gateway.url + messages.path, messages.body);
    expect(res.json.type).toBe("message");
  });

  it("x-interlingua-envelope: bare switches the wrapper off per request", async () => {
    for (const { path, body } of [chat, native, responses]) {
      const res = await postJson(spec.gateway.url + path, body, {
        ...auth(),
        "x-interlingua-envelope": "bare",
      });
      expect(res.json.code, path).toBeUndefined();
    }
    const res = await postJson(spec.gateway.url + chat.path, chat.body, {
      ...auth(),
      "x-interlingua-envelope": "bare",
    });
    expect(res.json.object).toBe("chat.completion");
  });

  it("envelope: bare in the config switches it off for everyone; the header can switch it back", async () => {
    const off = await postJson(bare.gateway.url + native.path, native.body);
    expect(off.json.candidates).toBeDefined();
    const on = await postJson(bare.gateway.url + native.path, native.body, {
      ...auth(),
      "x-interlingua-envelope": "spec",
    });
    expect(on.json.code).toBe(200);
  });

  it("errors keep their envelope whatever the switch says", async () => {
    const res = await postJson(bare.gateway.url + chat.path, { ...chat.body, model: "nope" });
    expect(res.status).toBe(404);
    expect(res.json.error.code).toBe(404);
  });

  it("GET /v1/models lists what the token may use, in OpenAI's list shape", async () => {
    const all = await fetch(`${spec.gateway.url}/v1/models`, { headers: auth() });
    expect(all.status).toBe(200);
    const body = (await all.json()) as {
      object: string;
      data: { id: string; object: string; created: number; owned_by: string }[];
    };
    expect(body.object).toBe("list");
    expect(body.data.map((m) => m.id)).toEqual([
      "txtA-5",
      "txtB-opus-4-8",
      "txtB-sonnet-4-6",
      "txtC-2.5-pro",
      "txtC-3.6-flash",
      "txtD-r1-250528",
      "txtD-v3.2",
    ]);
    expect(body.data[0]).toEqual({
      id: "txtA-5",
      object: "model",
      created: expect.any(Number),
      owned_by: "openai",
    });
    const limited = await fetch(`${spec.gateway.url}/v1/models`, { headers: auth(LIMITED_KEY) });
    expect(((await limited.json()) as typeof body).data.map((m) => m.id)).toEqual(["txtA-5"]);
  });
});
