import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auth,
  KEY,
  LIMITED_KEY,
  postJson,
  responsesChannel,
  type Stack,
  startStack,
  tokenRow,
} from "./stack.ts";

// The token-counting endpoints the SDKs and agent CLIs call: Anthropic count_tokens, OpenAI
// input_tokens, Gemini countTokens. Toward a provider that counts (Anthropic, Gemini, OpenAI's
// Responses API) the count is the provider's own (the simulator counts as it bills usage);
// toward one that does not (OpenAI chat) the gateway estimates, and says so.

const RATED = "sk-count-rated";
const BARE = { "x-interlingua-envelope": "bare" };
const WARNINGS = "x-interlingua-warnings";
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    extraChannels: responsesChannel("txtA-5.2-pro"),
    tokens: [
      { key: KEY, user: "alice", unlimited: true },
      { key: LIMITED_KEY, user: "alice", quota: 10, models: ["txtA-5"] },
      { key: RATED, user: "alice", unlimited: true, rate_limit: { rpm: 2 } },
    ],
  });
});
afterAll(() => stack.close());

const base = () => stack.gateway.url;
const upstreamPaths = () => stack.sim.requests.map((r) => r.path);

// "Be brief." + "Hello there" = 20 characters: 5 tokens by the simulator's count.
const SYSTEM = "Be brief.";
const TEXT = "Hello there";
const COUNTED = 5;
// The gateway's estimate: four characters a token (the same here), no provider asked.
const ESTIMATE = 5;

/** Each family's model: where the count goes, and what it answers. */
const FAMILIES = [
  { model: "txtB-sonnet-4-6", upstream: "/v1/messages/count_tokens", tokens: COUNTED },
  { model: "txtC-2.5-pro", upstream: "/v1beta/models/txtC-2.5-pro:countTokens", tokens: COUNTED },
  { model: "txtA-5.2-pro", upstream: "/v1/responses/input_tokens", tokens: COUNTED },
  { model: "txtA-5", upstream: undefined, tokens: ESTIMATE },
  { model: "txtD-v3.2", upstream: undefined, tokens: ESTIMATE },
] as const;

describe("Anthropic SDK: messages.countTokens", () => {
  const client = () => new Anthropic({ apiKey: KEY, baseURL: base(), maxRetries: 0 });

  for (const { model, upstream, tokens } of FAMILIES) {
    it(`${model}: ${upstream === undefined ? "estimated" : `counted by ${upstream}`}`, async () => {
      const before = stack.sim.requests.length;
      const { data, response } = await client()
        .messages.countTokens({
          model,
          system: SYSTEM,
          messages: [{ role: "user", content: TEXT }],
        })
        .withResponse();
      expect(data).toEqual({ input_tokens: tokens });
      const asked = upstreamPaths().slice(before);
      if (upstream === undefined) {
        expect(response.headers.get(WARNINGS)).toBe("input_tokens=estimated");
        expect(asked).toEqual([]);
      } else {
        expect(response.headers.get(WARNINGS)).toBeNull();
        expect(asked).toEqual([upstream]);
      }
    });
  }

  it("sends Anthropic its own body without max_tokens, the upstream model named", async () => {
    const before = stack.sim.requests.length;
    await client().messages.countTokens({
      model: "txtB-opus-4-8",
      messages: [{ role: "user", content: TEXT }],
    });
    const sent = stack.sim.requests.slice(before)[0]!;
    expect(sent.body).toEqual({
      model: "claude-upstream-name",
      messages: [{ role: "user", content: TEXT }],
    });
  });

  it("refuses a body the messages codec refuses, in Anthropic's envelope", async () => {
    const error = await client()
      // @ts-expect-error: messages left out on purpose
      .messages.countTokens({ model: "txtB-sonnet-4-6" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error" },
    });
  });

  it("refuses a wrong key (401) and an unknown model (404)", async () => {
    const wrongKey = new Anthropic({ apiKey: "sk-wrong", baseURL: base(), maxRetries: 0 });
    const body = { model: "txtB-sonnet-4-6", messages: [{ role: "user" as const, content: "x" }] };
    await expect(wrongKey.messages.countTokens(body)).rejects.toBeInstanceOf(
      Anthropic.AuthenticationError,
    );
    await expect(
      client().messages.countTokens({ ...body, model: "no-such-model" }),
    ).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it("answers the provider's refusal of the count in the client's envelope", async () => {
    const error = await client()
      .messages.countTokens({
        model: "txtB-sonnet-4-6",
        messages: [{ role: "user", content: "[[fault:status=400]] hi" }],
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  });
});

describe("OpenAI SDK: responses.inputTokens.count", () => {
  const client = () =>
    new OpenAI({ apiKey: KEY, baseURL: `${base()}/v1`, defaultHeaders: BARE, maxRetries: 0 });

  for (const { model, upstream, tokens } of FAMILIES) {
    it(`${model}: ${upstream === undefined ? "estimated" : `counted by ${upstream}`}`, async () => {
      const before = stack.sim.requests.length;
      const { data, response } = await client()
        .responses.inputTokens.count({ model, instructions: SYSTEM, input: TEXT })
        .withResponse();
      expect(data).toEqual({ object: "response.input_tokens", input_tokens: tokens });
      expect(response.headers.get(WARNINGS)).toBe(
        upstream === undefined ? "input_tokens=estimated" : null,
      );
      expect(upstreamPaths().slice(before)).toEqual(upstream === undefined ? [] : [upstream]);
    });
  }

  it("sends OpenAI only what its count takes (no store, include or output budget)", async () => {
    const before = stack.sim.requests.length;
    await client().responses.inputTokens.count({
      model: "txtA-5.2-pro",
      input: TEXT,
      reasoning: { effort: "low" },
    });
    const sent = stack.sim.requests.slice(before)[0]!.body as Record<string, unknown>;
    expect(Object.keys(sent).sort()).toEqual(["input", "model", "reasoning"]);
  });

  it("estimates a count that names no model (OpenAI counts for its default)", async () => {
    const { data, response } = await client()
      .responses.inputTokens.count({ input: TEXT })
      .withResponse();
    expect(data).toEqual({ object: "response.input_tokens", input_tokens: 3 });
    expect(response.headers.get(WARNINGS)).toBe("input_tokens=estimated");
  });

  it("wraps the reply under the spec envelope, as the rest of /v1/responses", async () => {
    const reply = await postJson(`${base()}/v1/responses/input_tokens`, {
      model: "txtA-5",
      input: TEXT,
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({
      code: 200,
      data: { object: "response.input_tokens", input_tokens: 3 },
    });
  });

  it("refuses a wrong key and a bad body in OpenAI's error shape", async () => {
    const wrong = new OpenAI({ apiKey: "sk-wrong", baseURL: `${base()}/v1`, maxRetries: 0 });
    await expect(
      wrong.responses.inputTokens.count({ model: "txtA-5", input: "x" }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const bad = await postJson(`${base()}/v1/responses/input_tokens`, {
      model: "txtA-5",
      input: 42,
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { type: "invalid_request_error" } });
  });
});

describe("@google/genai: models.countTokens", () => {
  const client = () =>
    new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: base(), headers: BARE } });

  for (const { model, upstream } of FAMILIES) {
    it(`${model}: ${upstream === undefined ? "estimated" : `counted by ${upstream}`}`, async () => {
      const before = stack.sim.requests.length;
      const counted = await client().models.countTokens({ model, contents: TEXT });
      // "Hello there": 11 characters, 3 tokens either way.
      expect(counted.totalTokens).toBe(3);
      expect(upstreamPaths().slice(before)).toEqual(upstream === undefined ? [] : [upstream]);
    });
  }

  it("counts a generateContentRequest whole (system instruction and tools), and says estimates", async () => {
    const body = {
      generateContentRequest: {
        model: "models/txtC-2.5-pro",
        systemInstruction: { parts: [{ text: SYSTEM }] },
        contents: [{ role: "user", parts: [{ text: TEXT }] }],
      },
    };
    const headers = { "x-goog-api-key": KEY };
    for (const model of ["txtC-2.5-pro", "txtB-sonnet-4-6"]) {
      const counted = await postJson(`${base()}/v1beta/models/${model}:countTokens`, body, headers);
      expect(counted.status).toBe(200);
      // The spec envelope, as generateContent's.
      expect(counted.json).toEqual({ code: 200, data: { totalTokens: COUNTED } });
    }
    const estimated = await postJson(`${base()}/v1beta/models/txtA-5:countTokens`, body, {
      ...headers,
      ...BARE,
    });
    expect(estimated.json).toEqual({ totalTokens: ESTIMATE });
    expect(estimated.headers.get(WARNINGS)).toBe("input_tokens=estimated");
  });

  it("lists what the prepared request dropped, and refuses it under x-interlingua-strict", async () => {
    // A native cache_control is only the gateway's hint: Gemini would refuse the field.
    const body = {
      contents: [{ role: "user", parts: [{ text: TEXT, cache_control: { type: "ephemeral" } }] }],
    };
    const url = `${base()}/v1beta/models/txtC-2.5-pro:countTokens`;
    const headers = { "x-goog-api-key": KEY, ...BARE };
    const counted = await postJson(url, body, headers);
    expect(counted.status).toBe(200);
    expect(counted.json).toEqual({ totalTokens: 3 });
    expect(counted.headers.get(WARNINGS)).toBe("cacheControl=dropped");
    const strict = await postJson(url, body, { ...headers, "x-interlingua-strict": "true" });
    expect(strict.status).toBe(400);
    expect(strict.json).toMatchObject({ error: { status: "INVALID_ARGUMENT" } });
  });

  it("refuses in Gemini's error shape: wrong key, bad body, unknown model", async () => {
    const url = (model: string) => `${base()}/v1beta/models/${model}:countTokens`;
    const wrong = await postJson(url("txtC-2.5-pro"), { contents: [] }, { "x-goog-api-key": "no" });
    expect(wrong.status).toBe(401);
    expect(wrong.json).toMatchObject({ error: { code: 401 } });
    const bad = await postJson(url("txtC-2.5-pro"), { contents: "x" }, { "x-goog-api-key": KEY });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ error: { code: 400, status: "INVALID_ARGUMENT" } });
    const contents = [{ role: "user", parts: [{ text: "x" }] }];
    const unknown = await postJson(url("no-such"), { contents }, { "x-goog-api-key": KEY });
    expect(unknown.status).toBe(404);
  });
});

describe("counting is free, and rate-limited", () => {
  it("charges nothing, even on a key whose quota holds no generation", async () => {
    const before = await tokenRow(stack, LIMITED_KEY);
    const body = { model: "txtA-5", messages: [{ role: "user", content: TEXT }] };
    const counted = await postJson(`${base()}/v1/messages/count_tokens`, body, auth(LIMITED_KEY));
    expect(counted.status).toBe(200);
    const generated = await postJson(
      `${base()}/v1/chat/completions`,
      { model: "txtA-5", messages: [{ role: "user", content: TEXT }] },
      auth(LIMITED_KEY),
    );
    expect(generated.status).not.toBe(200);
    const after = await tokenRow(stack, LIMITED_KEY);
    expect([after.used, after.reserved]).toEqual([before.used, before.reserved]);
  });

  it("counts against the key's rate limit", async () => {
    const body = { model: "txtB-sonnet-4-6", messages: [{ role: "user", content: TEXT }] };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      statuses.push(
        (await postJson(`${base()}/v1/messages/count_tokens`, body, auth(RATED))).status,
      );
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});
