import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { type Json, NATIVE_PATH, parseSse, TOOL } from "./wire.ts";

// Gemini CLI on an Anthropic upstream: it keeps a turn's visible parts and their thoughtSignature
// but never sends thought parts back. The signature it is handed carries the thinking itself, so
// the next turn reaches Anthropic with the very block it signed (text and signature, byte for
// byte) and thinking stays on.

describe("a Gemini client that drops thought parts keeps Anthropic thinking", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const lastMessages = (): Json =>
    [...stack.sim.requests].reverse().find((r) => /\/v1\/messages$/.test(r.path))?.body;

  for (const stream of [false, true]) {
    it(`${stream ? "stream" : "non-stream"}: turn 2 carries the signed thinking block`, async () => {
      const model = "txtB-sonnet-4-6";
      const first = {
        contents: [{ role: "user", parts: [{ text: "weather in Paris? [[tool]]" }] }],
        tools: [{ functionDeclarations: [TOOL] }],
        generationConfig: { thinkingConfig: { includeThoughts: true, thinkingBudget: 2048 } },
      };
      const res = await postJson(stack.gateway.url + NATIVE_PATH(model, stream), first, auth());
      expect(res.status, res.text).toBe(200);
      const chunks: Json[] = stream
        ? parseSse(res.text).map((f) => JSON.parse(f.data))
        : [res.json.data]; // spec envelope
      const parts: Json[] = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);

      // The oracle: the simulator's own reply to that upstream request, asked directly.
      const upstream = lastMessages();
      const direct = await postJson(
        `${stack.sim.url}/v1/messages`,
        { ...upstream, stream: false },
        { "x-api-key": UPSTREAM_KEY, "anthropic-version": "2023-06-01" },
      );
      const thinking = direct.json.content.find((b: Json) => b.type === "thinking");
      expect(thinking.signature).toMatch(/.+/);

      // What Gemini CLI keeps of the model turn: no thought parts.
      const kept = parts.filter((p) => p.thought !== true && (p.functionCall || p.text));
      const call = kept.find((p) => p.functionCall);
      expect(call.thoughtSignature).toMatch(/^interlingua\.thought:/);
      const second = {
        ...first,
        contents: [
          ...first.contents,
          { role: "model", parts: kept },
          {
            role: "user",
            parts: [
              {
                functionResponse: {
                  name: call.functionCall.name,
                  ...(call.functionCall.id ? { id: call.functionCall.id } : {}),
                  response: { result: "21C and sunny" },
                },
              },
            ],
          },
        ],
      };
      const res2 = await postJson(stack.gateway.url + NATIVE_PATH(model, stream), second, auth());
      expect(res2.status, res2.text).toBe(200);
      expect(res2.headers.get("x-interlingua-warnings") ?? "").not.toContain("thinking");
      const sent = lastMessages();
      expect(sent.thinking.type).not.toBe("disabled");
      expect(sent.messages[1].content[0]).toStrictEqual({
        type: "thinking",
        thinking: thinking.thinking,
        signature: thinking.signature,
      });
    });
  }
});

// A messages client (Claude Code) on a Gemini upstream: the functionCall's thoughtSignature, which
// Gemini 3 refuses a continued turn without, rides in a marked thinking block (the one opaque
// thing such clients replay) and reaches Gemini on the next turn byte for byte.
describe("a messages client on a Gemini upstream keeps the functionCall's thoughtSignature", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  const lastGemini = (): Json =>
    [...stack.sim.requests].reverse().find((r) => /:(stream)?[gG]enerateContent/.test(r.path))
      ?.body;
  const tools = [{ name: TOOL.name, description: TOOL.description, input_schema: TOOL.parameters }];

  /** The content blocks of a messages stream, as a client accumulates them. */
  function accumulate(text: string): Json[] {
    const blocks: Json[] = [];
    for (const frame of parseSse(text)) {
      const data = JSON.parse(frame.data);
      if (data.type === "content_block_start") blocks[data.index] = { ...data.content_block };
      if (data.type !== "content_block_delta") continue;
      const block = blocks[data.index];
      const delta = data.delta;
      if (delta.type === "text_delta") block.text += delta.text;
      if (delta.type === "thinking_delta") block.thinking += delta.thinking;
      if (delta.type === "signature_delta") block.signature += delta.signature;
      if (delta.type === "input_json_delta")
        block.partial = (block.partial ?? "") + delta.partial_json;
    }
    return blocks.map(({ partial, ...block }) =>
      block.type === "tool_use" ? { ...block, input: JSON.parse(partial ?? "{}") } : block,
    );
  }

  for (const stream of [false, true]) {
    it(`${stream ? "stream" : "non-stream"}: turn 2 reaches Gemini with the signature`, async () => {
      const model = "txtC-2.5-pro";
      const first = {
        model,
        max_tokens: 2048,
        tools,
        thinking: { type: "enabled", budget_tokens: 1024 },
        messages: [{ role: "user", content: "weather in Paris? [[tool]]" }],
        ...(stream ? { stream: true } : {}),
      };
      const res = await postJson(`${stack.gateway.url}/v1/messages`, first, auth());
      expect(res.status, res.text).toBe(200);
      const content: Json[] = stream ? accumulate(res.text) : res.json.content;

      const direct = await postJson(
        `${stack.sim.url}/v1beta/models/${model}:generateContent`,
        lastGemini(),
        { "x-goog-api-key": UPSTREAM_KEY },
      );
      const signed = direct.json.candidates[0].content.parts.find((p: Json) => p.functionCall);
      expect(signed.thoughtSignature).toMatch(/.+/);
      const use = content.find((b) => b.type === "tool_use");
      expect(content).toContainEqual({
        type: "thinking",
        thinking: "",
        signature: `interlingua.signature:${use.id}:${signed.thoughtSignature}`,
      });

      const second = {
        ...first,
        messages: [
          ...first.messages,
          { role: "assistant", content },
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: use.id, content: "21C and sunny" }],
          },
        ],
      };
      const res2 = await postJson(`${stack.gateway.url}/v1/messages`, second, auth());
      expect(res2.status, res2.text).toBe(200);
      const sent = lastGemini();
      const fc = sent.contents
        .find((c: Json) => c.role === "model")
        .parts.find((p: Json) => p.functionCall);
      expect(fc.thoughtSignature).toBe(signed.thoughtSignature);
      // No marked block reaches Gemini as a thought.
      expect(JSON.stringify(sent)).not.toContain("interlingua.signature");
    });
  }
});

// Gemini CLI marks a call it got no signature for with `skip_thought_signature_validator`; toward
// the Responses API that (Gemini's) signature has no place and must not become reasoning.
describe("Gemini CLI's call signatures toward the Responses API", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      extraChannels: (url) => [
        {
          name: "or",
          protocol: "openai-responses",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtA-5.2-codex"],
        },
      ],
    });
  });
  afterAll(() => stack.close());

  it("are dropped with a warning, not sent as unverifiable reasoning", async () => {
    const body = {
      contents: [
        { role: "user", parts: [{ text: "read it" }] },
        {
          role: "model",
          parts: [
            {
              functionCall: { id: "call_1", name: "read_file", args: { path: "a" } },
              thoughtSignature: "skip_thought_signature_validator",
            },
          ],
        },
        {
          role: "user",
          parts: [{ functionResponse: { id: "call_1", name: "read_file", response: { ok: 1 } } }],
        },
      ],
      tools: [{ functionDeclarations: [TOOL] }],
    };
    const res = await postJson(
      stack.gateway.url + NATIVE_PATH("txtA-5.2-codex", true),
      body,
      auth(),
    );
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("x-interlingua-warnings")).toContain("parts.signature=dropped");
    const sent = [...stack.sim.requests].reverse().find((r) => r.path === "/v1/responses")
      ?.body as Json;
    expect(JSON.stringify(sent)).not.toContain("skip_thought_signature_validator");
    expect(sent.input.some((i: Json) => i.type === "reasoning")).toBe(false);
  });
});
