import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  SCRIPTED_KEY,
  type ScriptedRequest,
  scriptedChannels,
  sse,
  startScriptedUpstream,
} from "./scripted-upstream.ts";
import { auth, postJson, type Stack, startStack } from "./stack.ts";
import { type Json, parseSse } from "./wire.ts";

// Issue 26 through the gateway: logprobs reach Gemini and come back to a chat client (point 8);
// a translated reasoning effort reaches Anthropic's output_config.effort only on models that take
// it (point 10).

const WARNINGS = "x-interlingua-warnings";
const STRICT = { ...auth(), "x-interlingua-strict": "true" };
const warningList = (headers: Headers): string[] =>
  (headers.get(WARNINGS) ?? "").split(",").filter((s) => s !== "");

/** An Anthropic channel whose gateway id names a model that refuses output_config.effort. */
const OLD_CLAUDE = "txtB-opus-4-5-20251101";
const OLD_CLAUDE_UPSTREAM = "claude-sonnet-4-5-20250929";

let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;
let stack: Stack;
beforeAll(async () => {
  upstream = await startScriptedUpstream();
  stack = await startStack({
    channels: [
      ...scriptedChannels(upstream.url),
      {
        name: "s-anthropic-old",
        protocol: "anthropic",
        base_url: upstream.url,
        api_key: SCRIPTED_KEY,
        models: { [OLD_CLAUDE]: OLD_CLAUDE_UPSTREAM },
      },
    ],
  });
});
afterAll(async () => {
  await stack?.close();
  await upstream?.close();
});

const url = (path: string) => stack.gateway.url + path;
const last = (protocol: ScriptedRequest["protocol"]): ScriptedRequest => {
  const found = upstream.requests.filter((r) => r.protocol === protocol).at(-1);
  if (found === undefined) throw new Error(`no ${protocol} request`);
  return found;
};

const GEMINI_LOGPROBS = {
  topCandidates: [
    {
      candidates: [
        { token: "Hi", logProbability: -0.25 },
        { token: "Hey", logProbability: -1.5 },
      ],
    },
  ],
  chosenCandidates: [{ token: "Hi", logProbability: -0.25 }],
};
const CHAT_TOKENS = [
  {
    token: "Hi",
    logprob: -0.25,
    bytes: null,
    top_logprobs: [
      { token: "Hi", logprob: -0.25, bytes: null },
      { token: "Hey", logprob: -1.5, bytes: null },
    ],
  },
];
const geminiReply = (request: ScriptedRequest) => {
  const candidate = {
    content: { role: "model", parts: [{ text: "Hi" }] },
    finishReason: "STOP",
    index: 0,
    logprobsResult: GEMINI_LOGPROBS,
    avgLogprobs: -0.25,
  };
  const body = {
    candidates: [candidate],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: "gemini-2.5-pro",
    responseId: "r1",
  };
  return { body: request.stream ? sse([body]) : JSON.stringify(body) };
};

const chatAsk = (model: string, extra: Json = {}) => ({
  model,
  messages: [{ role: "user", content: "hi" }],
  ...extra,
});

describe("logprobs toward Gemini (issue 26, point 8)", () => {
  it("a chat client's logprobs / top_logprobs reach Gemini's generationConfig, nothing dropped", async () => {
    upstream.script(geminiReply);
    const res = await postJson(
      url("/v1/chat/completions"),
      chatAsk("txtC-2.5-pro", { logprobs: true, top_logprobs: 2 }),
      STRICT,
    );
    expect(res.status).toBe(200);
    expect(last("gemini").body.generationConfig).toMatchObject({
      responseLogprobs: true,
      logprobs: 2,
    });
    // Only the reply's mean (no chat field) is reported; nothing of the request was dropped.
    expect(warningList(res.headers).filter((w) => w.includes("logprob"))).toEqual([
      "choices[0].logprobs.average=dropped",
    ]);
  });

  it("Gemini's logprobsResult reaches the chat client as choices[].logprobs.content", async () => {
    upstream.script(geminiReply);
    const res = await postJson(
      url("/v1/chat/completions"),
      chatAsk("txtC-2.5-pro", { logprobs: true, top_logprobs: 2 }),
    );
    expect(res.status).toBe(200);
    const choice = (res.json.data ?? res.json).choices[0];
    expect(choice.logprobs).toEqual({ content: CHAT_TOKENS, refusal: null });
    // Gemini's mean has no chat field: reported, not lost silently.
    expect(warningList(res.headers)).toContain("choices[0].logprobs.average=dropped");
  });

  it("streamed, each chunk's logprobs reach the chat client's chunks", async () => {
    upstream.script(geminiReply);
    const res = await postJson(
      url("/v1/chat/completions"),
      chatAsk("txtC-2.5-pro", { logprobs: true, top_logprobs: 2, stream: true }),
    );
    expect(res.status).toBe(200);
    const chunks = parseSse(res.text)
      .filter((f) => f.data !== "[DONE]")
      .map((f) => JSON.parse(f.data));
    const logprobs = chunks.flatMap((c) =>
      (c.choices ?? []).flatMap((choice: Json) => (choice.logprobs ? [choice.logprobs] : [])),
    );
    expect(logprobs).toEqual([{ content: CHAT_TOKENS, refusal: null }]);
  });

  it("a Responses client's include entry asks Gemini too", async () => {
    upstream.script(geminiReply);
    const res = await postJson(url("/v1/responses"), {
      model: "txtC-2.5-pro",
      input: "hi",
      include: ["message.output_text.logprobs"],
      top_logprobs: 2,
    });
    expect(res.status).toBe(200);
    expect(last("gemini").body.generationConfig).toMatchObject({
      responseLogprobs: true,
      logprobs: 2,
    });
  });

  it("toward Anthropic they are dropped and reported; strict refuses", async () => {
    upstream.script(() => ({ status: 500, body: "{}" }));
    const before = upstream.requests.length;
    const res = await postJson(
      url("/v1/chat/completions"),
      chatAsk("txtB-sonnet-4-6", { logprobs: true }),
      STRICT,
    );
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/logprobs/);
    expect(upstream.requests.length).toBe(before);
  });
});

const anthropicReply = () => ({
  body: JSON.stringify({
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "m",
    content: [{ type: "text", text: "ok" }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  }),
});

describe("reasoning effort toward Anthropic, per model (issue 26, point 10)", () => {
  it("a model that takes output_config.effort gets it", async () => {
    upstream.script(anthropicReply);
    const res = await postJson(
      url("/v1/chat/completions"),
      chatAsk("txtB-sonnet-4-6", { reasoning_effort: "low", max_completion_tokens: 20_000 }),
    );
    expect(res.status).toBe(200);
    expect(last("anthropic").body).toMatchObject({
      model: "txtB-sonnet-4-6",
      output_config: { effort: "low" },
      thinking: { type: "enabled", budget_tokens: 4096 },
    });
  });

  it("a model that refuses it gets the effort as the thinking budget only, reported", async () => {
    upstream.script(anthropicReply);
    const res = await postJson(
      url("/v1/chat/completions"),
      chatAsk(OLD_CLAUDE, { reasoning_effort: "low", max_completion_tokens: 20_000 }),
      STRICT,
    );
    expect(res.status).toBe(200);
    const sent = last("anthropic").body;
    expect(sent.model).toBe(OLD_CLAUDE_UPSTREAM);
    expect(sent).not.toHaveProperty("output_config");
    expect(sent.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    expect(warningList(res.headers)).toContain("thinking.effort=mapped");
  });

  it("a messages client's own output_config.effort goes to that model unchanged", async () => {
    upstream.script(anthropicReply);
    const res = await postJson(url("/v1/messages"), {
      model: OLD_CLAUDE,
      max_tokens: 20_000,
      messages: [{ role: "user", content: "hi" }],
      thinking: { type: "enabled", budget_tokens: 4096 },
      output_config: { effort: "medium" },
    });
    expect(res.status).toBe(200);
    expect(last("anthropic").body.output_config).toEqual({ effort: "medium" });
  });
});

describe("logprobs against the simulated Gemini upstream", () => {
  let sim: Stack;
  beforeAll(async () => {
    sim = await startStack();
  });
  afterAll(() => sim?.close());

  it("a chat client gets the simulator's tokens, joined they are the answer", async () => {
    const res = await postJson(sim.gateway.url + "/v1/chat/completions", {
      model: "txtC-2.5-pro",
      messages: [{ role: "user", content: "Hello there" }],
      logprobs: true,
      top_logprobs: 2,
    });
    expect(res.status).toBe(200);
    const choice = (res.json.data ?? res.json).choices[0];
    const tokens: { token: string; top_logprobs: unknown[] }[] = choice.logprobs.content;
    expect(tokens.map((t) => t.token).join("")).toBe(choice.message.content);
    expect(tokens.every((t) => t.top_logprobs.length === 2)).toBe(true);
  });
});
