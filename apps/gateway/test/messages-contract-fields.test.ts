import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY, postJson, type Stack, startStack } from "./stack.ts";
import { type ClientFormat, type Json, NATIVE_PATH, parseSse, REQUEST } from "./wire.ts";

// docs/api-reference.md "Limits", "Messages-format result" and "POST /v1/messages": temperature
// toward an Anthropic upstream, usage's service_tier and inference_geo, and stop_details.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());
const url = (path: string) => stack.gateway.url + path;

/** The body the simulator's Anthropic endpoint received last. */
const lastAnthropicBody = (): Json =>
  [...stack.sim.requests].reverse().find((r) => r.path === "/v1/messages")?.body;

describe("temperature above 1 toward an Anthropic upstream", () => {
  const hot: Record<Exclude<ClientFormat, "messages">, () => { path: string; body: Json }> = {
    chat: () => {
      const { path, body } = REQUEST.chat({ model: "txtB-sonnet-4-6", text: "hi", stream: false });
      return { path, body: { ...body, temperature: 1.5 } };
    },
    responses: () => {
      const ask = { model: "txtB-sonnet-4-6", text: "hi", stream: false };
      const { path, body } = REQUEST.responses(ask);
      return { path, body: { ...body, temperature: 1.5 } };
    },
    native: () => ({
      path: NATIVE_PATH("txtB-sonnet-4-6", false),
      body: {
        contents: [{ role: "user", parts: [{ text: "hi" }] }],
        generationConfig: { temperature: 1.5 },
      },
    }),
  };
  for (const [client, make] of Object.entries(hot)) {
    it(`${client}: reaches Anthropic as 1, reported as mapped`, async () => {
      const { path, body } = make();
      const res = await postJson(url(path), body);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("x-interlingua-warnings")).toContain("sampling.temperature=mapped");
      expect(lastAnthropicBody().temperature).toBe(1);
    });
  }

  it("messages: the client's own limit is Anthropic's, so 1.5 is a 400 naming temperature", async () => {
    const { path, body } = REQUEST.messages({
      model: "txtB-sonnet-4-6",
      text: "hi",
      stream: false,
    });
    const res = await postJson(url(path), { ...body, temperature: 1.5 });
    expect(res.status).toBe(400);
    expect(res.json.type).toBe("error");
    expect(res.json.error.type).toBe("invalid_request_error");
    expect(res.json.error.message).toContain("temperature");
  });
});

/** A messages reply's usage and message object: the body, or message_start's of a stream. */
async function messagesReply(model: string, stream: boolean): Promise<Json> {
  const { path, body } = REQUEST.messages({ model, text: "hi", stream });
  const res = await postJson(url(path), body);
  expect(res.status, res.text).toBe(200);
  if (!stream) return res.json;
  const start = parseSse(res.text).find((f) => f.event === "message_start");
  return JSON.parse(start?.data ?? "{}").message;
}

describe("messages usage: service_tier and inference_geo are strings", () => {
  for (const model of ["txtA-5", "txtC-3.6-flash", "txtD-v3.2", "txtB-sonnet-4-6"]) {
    for (const stream of [false, true]) {
      it(`${model}${stream ? ", streamed" : ""}`, async () => {
        const { usage } = await messagesReply(model, stream);
        expect(["standard", "priority", "batch"]).toContain(usage.service_tier);
        expect(typeof usage.inference_geo).toBe("string");
      });
    }
  }
  it("an OpenAI upstream's default tier is standard; an unknown geography is not_available", async () => {
    const { usage } = await messagesReply("txtA-5", false);
    expect([usage.service_tier, usage.inference_geo]).toEqual(["standard", "not_available"]);
  });
});

describe("messages stop_details", () => {
  for (const model of ["txtB-opus-4-8", "txtA-5"]) {
    for (const stream of [false, true]) {
      it(`is null on an ordinary ${model} reply${stream ? " (message_start)" : ""}`, async () => {
        const message = await messagesReply(model, stream);
        expect(message).toHaveProperty("stop_details", null);
      });
    }
  }
  it("a same-format body is otherwise the upstream's bytes: one field added after stop_reason", async () => {
    const { path, body } = REQUEST.messages({ model: "txtB-opus-4-8", text: "hi", stream: false });
    const res = await postJson(url(path), body);
    expect(res.text).toMatch(/"stop_reason":\s*"end_turn","stop_details":null/);
    expect(res.text.match(/"stop_details"/g)).toHaveLength(1);
  });
});

describe("a messages stream's error names the request, as its error bodies do", () => {
  // Relayed from Anthropic as it sent it, and rendered by the gateway from an OpenAI upstream.
  for (const model of ["txtB-sonnet-4-6", "txtA-5"]) {
    it(`${model}: the error event's message ends with the request id`, async () => {
      const { path, body } = REQUEST.messages({
        model,
        text: "hi [[len:20]] [[fault:error-after=2]]",
        stream: true,
      });
      const reply = await postJson(url(path), body, { "x-api-key": KEY });
      expect(reply.status).toBe(200);
      const requestId = reply.headers.get("x-request-id");
      const errors = parseSse(reply.text).filter((f) => f.event === "error");
      expect(errors).toHaveLength(1);
      const event = JSON.parse(errors[0]!.data) as Json;
      expect(event.type).toBe("error");
      expect(event.error.message).toMatch(/\S \(request id: [^)]+\)$/);
      expect(event.error.message.endsWith(`(request id: ${requestId})`)).toBe(true);
    });
  }
});

describe("the request id header on the messages endpoint", () => {
  // Not in the contract: Anthropic's API sends the id as `request-id` (its SDKs read it into
  // `_request_id`); the gateway sends it there too, besides `x-request-id`, on the messages family.
  const MESSAGES = {
    model: "txtB-sonnet-4-6",
    max_tokens: 20,
    messages: [{ role: "user", content: "hi" }],
  };
  const anthropic = { "x-api-key": KEY, "anthropic-version": "2023-06-01" };

  const cases: [string, string, Json, Record<string, string>, number][] = [
    ["a reply", "/v1/messages", MESSAGES, anthropic, 200],
    ["a stream", "/v1/messages", { ...MESSAGES, stream: true }, anthropic, 200],
    ["a refusal", "/v1/messages", { ...MESSAGES, max_tokens: 0 }, anthropic, 400],
    ["a missing key", "/v1/messages", MESSAGES, {}, 401],
    [
      "a token count",
      "/v1/messages/count_tokens",
      { ...MESSAGES, max_tokens: undefined },
      anthropic,
      200,
    ],
    ["an unknown messages route", "/v1/messages/batches", {}, anthropic, 404],
  ];
  for (const [what, path, body, headers, status] of cases) {
    it(`${what}: request-id equals x-request-id`, async () => {
      const res = await postJson(url(path), body, headers);
      expect(res.status, res.text).toBe(status);
      const id = res.headers.get("x-request-id");
      expect(id).toMatch(/^req_/);
      expect(res.headers.get("request-id")).toBe(id);
      if (status >= 400) expect(res.json.request_id).toBe(id);
    });
  }

  it("other families keep x-request-id alone", async () => {
    const { path, body } = REQUEST.chat({ model: "txtA-5", text: "hi", stream: false });
    const res = await postJson(url(path), body, { authorization: `Bearer ${KEY}` });
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    expect(res.headers.get("request-id")).toBeNull();
  });
});
