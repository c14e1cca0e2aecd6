import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { type ClientFormat, type Json, NATIVE_PATH, parseSse, REQUEST, TOOL } from "./wire.ts";

// What translated replies must say whatever the upstream left out: a blocked prompt is a stop
// every client format shows (stream and not alike), created is the call's time, usage the
// upstream's real counts, and a native client streamed from Claude keeps its signed thinking.

const BARE = { ...auth(), "x-interlingua-envelope": "bare" };
const frames = (text: string): Json[] =>
  parseSse(text)
    .filter((f) => f.data !== "[DONE]")
    .map((f) => JSON.parse(f.data));

/** The stop each client format reads, non-stream and stream. */
const STOP: Record<
  Exclude<ClientFormat, "native">,
  { body: (b: Json) => unknown; stream: (f: Json[]) => unknown }
> = {
  chat: {
    body: (b) => b.choices[0].finish_reason,
    stream: (f) => f.flatMap((c) => c.choices ?? []).find((c) => c.finish_reason)?.finish_reason,
  },
  // Bare bodies on /v1/responses are OpenAI's real Responses API: the stop is the status.
  responses: {
    body: (b) => (b.incomplete_details?.reason === "content_filter" ? "content_filter" : b.status),
    stream: (f) => {
      const end = f.find(
        (e) => e.type === "response.incomplete" || e.type === "response.completed",
      );
      return end?.response.incomplete_details?.reason === "content_filter"
        ? "content_filter"
        : end?.type;
    },
  },
  messages: {
    body: (b) => b.stop_reason,
    stream: (f) => f.find((e) => e.type === "message_delta")?.delta.stop_reason,
  },
};
const EXPECTED_STOP = { chat: "content_filter", responses: "content_filter", messages: "refusal" };

describe("translation fidelity through the gateway", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const lastUpstream = (path: RegExp): Json =>
    stack.sim.requests.filter((r) => path.test(r.path)).at(-1)?.body;

  for (const client of ["chat", "responses", "messages"] as const) {
    it(`a prompt Gemini blocks reaches a ${client} client as ${EXPECTED_STOP[client]}, stream and not alike`, async () => {
      const seen: unknown[] = [];
      for (const stream of [false, true]) {
        const { path, body } = REQUEST[client]({
          model: "txtC-2.5-pro",
          text: "something bad [[safety:PROHIBITED_CONTENT]]",
          stream,
        });
        const res = await postJson(stack.gateway.url + path, body, BARE);
        expect(res.status, res.text).toBe(200);
        seen.push(stream ? STOP[client].stream(frames(res.text)) : STOP[client].body(res.json));
      }
      expect(seen).toEqual([EXPECTED_STOP[client], EXPECTED_STOP[client]]);
    });
  }

  it("created is the time of the call and id/model are never empty in translated replies", async () => {
    const before = Math.floor(Date.now() / 1000) - 1;
    const res = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      { model: "txtB-sonnet-4-6", messages: [{ role: "user", content: "hi" }] },
      BARE,
    );
    expect(res.json.created).toBeGreaterThanOrEqual(before);
    const streamed = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      { model: "txtC-2.5-pro", messages: [{ role: "user", content: "hi" }], stream: true },
      BARE,
    );
    for (const chunk of frames(streamed.text)) {
      expect(chunk.created).toBeGreaterThanOrEqual(before);
      expect(chunk.id).not.toBe("");
      expect(chunk.model).not.toBe("");
    }
    const { path, body } = REQUEST.responses({
      model: "txtB-sonnet-4-6",
      text: "hi",
      stream: true,
    });
    const responsesStream = await postJson(stack.gateway.url + path, body, BARE);
    const created = frames(responsesStream.text).filter((e) => e.response !== undefined);
    expect(created.length).toBeGreaterThan(0);
    for (const e of created) expect(e.response.created_at).toBeGreaterThanOrEqual(before);
  });

  it("reasoning_tokens reflects Claude's thinking (Anthropic folds it into output_tokens)", async () => {
    for (const stream of [false, true]) {
      const res = await postJson(
        `${stack.gateway.url}/v1/chat/completions`,
        {
          model: "txtB-sonnet-4-6",
          messages: [{ role: "user", content: "think about it" }],
          reasoning_effort: "low",
          max_completion_tokens: 4000,
          ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
        },
        BARE,
      );
      expect(res.status, res.text).toBe(200);
      const usage = stream ? frames(res.text).find((c) => c.usage)?.usage : res.json.usage;
      expect(usage.completion_tokens_details.reasoning_tokens).toBeGreaterThan(0);
      expect(usage.completion_tokens_details.reasoning_tokens).toBeLessThanOrEqual(
        usage.completion_tokens,
      );
    }
  });

  it("a messages client streamed from Gemini gets the real input_tokens in message_start", async () => {
    const { path, body } = REQUEST.messages({ model: "txtC-2.5-pro", text: "hello", stream: true });
    const res = await postJson(stack.gateway.url + path, body, BARE);
    const start = frames(res.text).find((e) => e.type === "message_start");
    const end = frames(res.text).find((e) => e.type === "message_delta");
    expect(start.message.usage.input_tokens).toBeGreaterThan(0);
    expect(start.message.usage.input_tokens).toBe(end.usage.input_tokens);
  });

  it("Anthropic-format thinking sent to a Gemini model asks for its thoughts (includeThoughts)", async () => {
    const { path, body } = REQUEST.messages({
      model: "txtC-2.5-pro",
      text: "ponder",
      stream: false,
      thinking: true,
    });
    const res = await postJson(stack.gateway.url + path, body, BARE);
    expect(res.status, res.text).toBe(200);
    const upstream = lastUpstream(/:generateContent$/);
    expect(upstream.generationConfig.thinkingConfig.includeThoughts).toBe(true);
    expect(res.json.content.some((b: Json) => b.type === "thinking")).toBe(true);
  });

  it("a native client streamed from Claude: the signature rides on the functionCall and signs the next turn", async () => {
    const model = "txtB-sonnet-4-6";
    const contents: Json[] = [{ role: "user", parts: [{ text: "weather? [[tool]]" }] }];
    const body = {
      contents,
      tools: [{ functionDeclarations: [TOOL] }],
      generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
    };
    const res = await postJson(stack.gateway.url + NATIVE_PATH(model, true), body, BARE);
    expect(res.status, res.text).toBe(200);
    // What a Gemini SDK keeps: every part of every chunk, in order.
    const parts: Json[] = frames(res.text).flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    expect(parts).not.toContainEqual(expect.objectContaining({ text: "", thought: true }));
    const call = parts.find((p) => p.functionCall);
    expect(call.thoughtSignature).toMatch(/.+/);

    // The oracle: the simulator's own signature for the thinking of that first upstream request.
    const first = lastUpstream(/\/v1\/messages$/);
    const direct = await postJson(
      `${stack.sim.url}/v1/messages`,
      { ...first, stream: false },
      { "x-api-key": UPSTREAM_KEY, "anthropic-version": "2023-06-01" },
    );
    const thinking = direct.json.content.find((b: Json) => b.type === "thinking");

    const next = await postJson(
      stack.gateway.url + NATIVE_PATH(model, false),
      {
        ...body,
        contents: [
          ...contents,
          { role: "model", parts },
          {
            role: "user",
            parts: [{ functionResponse: { name: TOOL.name, response: { temp: 21 } } }],
          },
        ],
      },
      BARE,
    );
    expect(next.status, next.text).toBe(200);
    const upstream = lastUpstream(/\/v1\/messages$/);
    expect(upstream.thinking.type).not.toBe("disabled");
    expect(upstream.messages[1].content[0]).toStrictEqual({
      type: "thinking",
      thinking: thinking.thinking,
      signature: thinking.signature,
    });
  });
});
