import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { accumulateChat } from "./stream-accumulate.ts";
import { type Json, parseSse, TOOL } from "./wire.ts";

// A chat client that appends choices[0].message as received and sends its tool results back keeps
// a tool loop with thinking working: the signed thinking block (Anthropic) and the functionCall's
// thoughtSignature (Gemini) reach the second upstream request byte for byte.

const BARE = { ...auth(), "x-interlingua-envelope": "bare" };
const TOOLS = [{ type: "function", function: TOOL }];

describe("chat tool loops with thinking keep the upstream's signatures", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const upstreamBodies = (path: RegExp): Json[] =>
    stack.sim.requests.filter((r) => path.test(r.path)).map((r) => r.body as Json);

  async function firstTurn(model: string, stream: boolean) {
    const body = {
      model,
      messages: [{ role: "user", content: "weather in Paris? [[tool]]" }],
      tools: TOOLS,
      reasoning_effort: "high",
      ...(stream ? { stream: true } : {}),
    };
    const res = await postJson(`${stack.gateway.url}/v1/chat/completions`, body, BARE);
    expect(res.status, res.text).toBe(200);
    const message = stream
      ? accumulateChat(res.text, { reasoningContent: true })
      : res.json.choices[0].message;
    expect(message.tool_calls.length).toBeGreaterThan(0);
    return { body, message };
  }

  async function secondTurn(first: { body: Json; message: Json }, stream: boolean) {
    const body = {
      ...first.body,
      ...(stream ? { stream: true } : {}),
      messages: [
        ...first.body.messages,
        // As received, serialised and parsed again like a client's history.
        JSON.parse(JSON.stringify(first.message)),
        ...first.message.tool_calls.map((call: Json) => ({
          role: "tool",
          tool_call_id: call.id,
          content: "21C and sunny",
        })),
      ],
    };
    const res = await postJson(`${stack.gateway.url}/v1/chat/completions`, body, BARE);
    expect(res.status, res.text).toBe(200);
    return res;
  }

  for (const stream of [false, true]) {
    it(`chat -> Anthropic (${stream ? "stream" : "non-stream"}): the thinking block comes back signed, unchanged`, async () => {
      const first = await firstTurn("txtB-sonnet-4-6", stream);
      const firstUpstream = upstreamBodies(/\/v1\/messages$/).at(-1);
      expect(firstUpstream.thinking.type).not.toBe("disabled");
      // The oracle: the simulator's own reply to that upstream request, asked directly.
      const direct = await postJson(
        `${stack.sim.url}/v1/messages`,
        { ...firstUpstream, stream: false },
        {
          "x-api-key": UPSTREAM_KEY,
          "anthropic-version": "2023-06-01",
        },
      );
      const thinking = direct.json.content.find((b: Json) => b.type === "thinking");
      expect(thinking.signature).toMatch(/.+/);
      expect(first.message.reasoning_details).toContainEqual(
        expect.objectContaining({
          type: "reasoning.text",
          text: thinking.thinking,
          signature: thinking.signature,
        }),
      );

      const second = await secondTurn(first, stream);
      const upstream = upstreamBodies(/\/v1\/messages$/).at(-1);
      // Thinking stays on and the continued turn starts with the very block Anthropic signed
      // (the simulator refuses a block whose signature does not match, as Anthropic does).
      expect(upstream.thinking.type).not.toBe("disabled");
      expect(upstream.messages[1].content[0]).toStrictEqual({
        type: "thinking",
        thinking: thinking.thinking,
        signature: thinking.signature,
      });
      expect(second.text).toContain("echo:");
    });

    it(`chat -> Gemini (${stream ? "stream" : "non-stream"}): the functionCall's thoughtSignature comes back on it`, async () => {
      const first = await firstTurn("txtC-2.5-pro", stream);
      const firstUpstream = upstreamBodies(/:(stream)?[gG]enerateContent$/).at(-1);
      const direct = await postJson(
        `${stack.sim.url}/v1beta/models/txtC-2.5-pro:generateContent`,
        firstUpstream,
        { "x-goog-api-key": UPSTREAM_KEY },
      );
      const signed = direct.json.candidates[0].content.parts.find((p: Json) => p.functionCall);
      expect(signed.thoughtSignature).toMatch(/.+/);
      const call = first.message.tool_calls[0];
      expect(first.message.reasoning_details).toContainEqual({
        type: "reasoning.encrypted",
        data: signed.thoughtSignature,
        id: call.id,
        format: "google-gemini-v1",
        index: expect.any(Number),
      });

      await secondTurn(first, stream);
      const upstream = upstreamBodies(/:(stream)?[gG]enerateContent$/).at(-1);
      const model = upstream.contents.find((c: Json) => c.role === "model");
      const fc = model.parts.find((p: Json) => p.functionCall);
      expect(fc.thoughtSignature).toBe(signed.thoughtSignature);
      expect(fc.functionCall.name).toBe(TOOL.name);
    });
  }

  // The responses format: what the OpenAI Agents SDK does, replaying the streamed output items.
  async function responsesLoop(model: string) {
    const input: Json[] = [{ role: "user", content: "weather in Paris? [[tool]]" }];
    const body = {
      model,
      input,
      tools: [{ type: "function", function: TOOL }],
      reasoning: { effort: "high" },
      stream: true,
    };
    const first = await postJson(`${stack.gateway.url}/v1/responses`, body, BARE);
    expect(first.status, first.text).toBe(200);
    const done = parseSse(first.text)
      .map((f) => JSON.parse(f.data))
      .find((e) => e.type === "response.completed");
    const output: Json[] = done.response.output;
    const calls = output.filter((item) => item.type === "function_call");
    expect(calls.length).toBeGreaterThan(0);
    const next = await postJson(
      `${stack.gateway.url}/v1/responses`,
      {
        ...body,
        stream: false,
        input: [
          ...input,
          ...output,
          ...calls.map((c) => ({
            type: "function_call_output",
            call_id: c.call_id,
            output: "21C",
          })),
        ],
      },
      BARE,
    );
    expect(next.status, next.text).toBe(200);
    return output;
  }

  it("responses -> Anthropic: the reasoning item's encrypted_content signs the next turn", async () => {
    const output = await responsesLoop("txtB-sonnet-4-6");
    const reasoning = output.find((item) => item.type === "reasoning");
    const upstream = upstreamBodies(/\/v1\/messages$/).at(-1);
    expect(upstream.thinking.type).not.toBe("disabled");
    expect(upstream.messages[1].content[0]).toMatchObject({
      type: "thinking",
      signature: reasoning.encrypted_content,
    });
  });

  it("responses -> Gemini: the functionCall's thoughtSignature rides in a marked reasoning item", async () => {
    const output = await responsesLoop("txtC-2.5-pro");
    const marked = output.find(
      (item) =>
        item.type === "reasoning" &&
        String(item.encrypted_content).startsWith("interlingua.signature:"),
    );
    expect(marked).toBeDefined();
    const upstream = upstreamBodies(/:(stream)?[gG]enerateContent$/).at(-1);
    const fc = upstream.contents
      .find((c: Json) => c.role === "model")
      .parts.find((p: Json) => p.functionCall);
    expect(String(marked.encrypted_content).endsWith(`:${fc.thoughtSignature}`)).toBe(true);
    expect(fc.thoughtSignature).toMatch(/.+/);
  });

  it("a messages client (forwarded as is) that drops the thinking block: thinking off, warned", async () => {
    const tools = [
      { name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters },
    ];
    const res = await postJson(
      `${stack.gateway.url}/v1/messages`,
      {
        model: "txtB-sonnet-4-6",
        max_tokens: 4096,
        thinking: { type: "enabled", budget_tokens: 1024 },
        tools,
        messages: [
          { role: "user", content: "weather?" },
          {
            role: "assistant",
            content: [
              { type: "tool_use", id: "toolu_1", name: TOOL.name, input: { city: "Paris" } },
            ],
          },
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "21C" }],
          },
        ],
      },
      auth(),
    );
    expect(res.status, res.text).toBe(200);
    expect(upstreamBodies(/\/v1\/messages$/).at(-1).thinking).toStrictEqual({ type: "disabled" });
    expect(res.headers.get("x-interlingua-warnings") ?? "").toContain("thinking");
  });

  it("a chat client that drops the thinking block: Anthropic gets thinking off for that request instead of a 400", async () => {
    const first = await firstTurn("txtB-sonnet-4-6", false);
    const { reasoning_details: _dropped, reasoning_content: _text, ...bare } = first.message;
    const res = await secondTurn({ ...first, message: bare }, false);
    const upstream = upstreamBodies(/\/v1\/messages$/).at(-1);
    expect(upstream.thinking).toStrictEqual({ type: "disabled" });
    expect(upstream.messages[1].content[0].type).toBe("tool_use");
    expect(res.json.choices[0].message.content).toContain("echo:");
    expect(res.headers.get("x-interlingua-warnings") ?? "").toContain("thinking");
  });
});
