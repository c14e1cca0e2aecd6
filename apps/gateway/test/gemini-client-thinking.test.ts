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
      const chunks: Json[] = stream ? parseSse(res.text).map((f) => JSON.parse(f.data)) : [res.json.data]; // spec envelope
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
