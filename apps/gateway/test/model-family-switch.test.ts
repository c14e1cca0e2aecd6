import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, responsesChannel, type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

// A client that switches model family mid-conversation (Anthropic -> OpenAI Responses, or back,
// or Gemini -> Anthropic) sends the previous turn's assistant message as it received it, thinking
// signed by the first provider included. The second provider verifies signatures and refused the
// whole request (OpenAI `invalid_encrypted_content`, Anthropic `Invalid signature`); the foreign
// thinking is now dropped, warned, and the turn goes on.

const HEADERS = { ...auth(), "x-interlingua-envelope": "bare", "anthropic-version": "2023-06-01" };
const PAIRS = [
  ["txtB-sonnet-4-6", "txtA-5.2-codex"],
  ["txtA-5.2-codex", "txtB-sonnet-4-6"],
  ["txtC-2.5-pro", "txtB-sonnet-4-6"],
] as const;
const PARAMETERS = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
};

/** One client format: its first request, the follow-up built from the reply, its path. */
interface Client {
  path: string;
  first(model: string): Json;
  next(first: Json, reply: Json, model: string): Json;
}

const CLIENTS: Record<string, Client> = {
  chat: {
    path: "/v1/chat/completions",
    first: (model) => ({
      model,
      messages: [{ role: "user", content: "Paris? [[think]] [[tool:get_weather]]" }],
      tools: [{ type: "function", function: { name: "get_weather", parameters: PARAMETERS } }],
      reasoning_effort: "high",
    }),
    next: (first, reply, model) => {
      const message = { ...reply.choices[0].message, audio: null, function_call: null };
      return {
        ...first,
        model,
        messages: [
          ...first.messages,
          message,
          { role: "tool", tool_call_id: message.tool_calls[0].id, content: "sunny" },
        ],
      };
    },
  },
  messages: {
    path: "/v1/messages",
    first: (model) => ({
      model,
      max_tokens: 4096,
      thinking: { type: "enabled", budget_tokens: 1024 },
      messages: [{ role: "user", content: "Paris? [[tool:get_weather]]" }],
      tools: [{ name: "get_weather", input_schema: PARAMETERS }],
    }),
    next: (first, reply, model) => ({
      ...first,
      model,
      messages: [
        ...first.messages,
        { role: "assistant", content: reply.content },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: reply.content.find((b: Json) => b.type === "tool_use").id,
              content: "sunny",
            },
          ],
        },
      ],
    }),
  },
  responses: {
    path: "/v1/responses",
    first: (model) => ({
      model,
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "high", summary: "auto" },
      input: [{ role: "user", content: "Paris? [[think]] [[tool:get_weather]]" }],
      tools: [{ type: "function", name: "get_weather", parameters: PARAMETERS }],
    }),
    next: (first, reply, model) => ({
      ...first,
      model,
      input: [
        ...first.input,
        ...reply.output,
        {
          type: "function_call_output",
          call_id: reply.output.find((o: Json) => o.type === "function_call").call_id,
          output: "sunny",
        },
      ],
    }),
  },
};

describe("a conversation that changes model family drops the other provider's thinking", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ extraChannels: responsesChannel("txtA-5.2-codex") });
  });
  afterAll(() => stack.close());

  for (const [name, client] of Object.entries(CLIENTS)) {
    for (const [from, to] of PAIRS) {
      it(`${name}: ${from} -> ${to}`, async () => {
        const url = `${stack.gateway.url}${client.path}`;
        const first = client.first(from);
        const reply = await postJson(url, first, HEADERS);
        expect(reply.status, reply.text).toBe(200);
        // As received, serialised and parsed again like a client's history.
        const next = client.next(first, JSON.parse(reply.text), to);
        const res = await postJson(url, next, HEADERS);
        expect(res.status, res.text).toBe(200);
        expect(res.text).toContain("echo: ");
        // Gemini's thoughts come unsigned: the translating path drops them by position.
        expect(res.headers.get("x-interlingua-warnings") ?? "").toMatch(
          /(^|,)(parts\.thinking|messages\[1\]\.parts\[0\])=dropped/,
        );
      });
    }
  }

  it("keeps a family's own thinking when the model stays in the family", async () => {
    for (const model of ["txtB-sonnet-4-6", "txtA-5.2-codex"]) {
      for (const client of Object.values(CLIENTS)) {
        const url = `${stack.gateway.url}${client.path}`;
        const first = client.first(model);
        const reply = await postJson(url, first, HEADERS);
        const res = await postJson(url, client.next(first, JSON.parse(reply.text), model), HEADERS);
        expect(res.status, res.text).toBe(200);
        expect(res.headers.get("x-interlingua-warnings") ?? "").not.toContain("parts.thinking");
      }
    }
  });
});
