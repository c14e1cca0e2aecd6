import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, eventually, postJson, responsesChannel, type Stack, startStack } from "./stack.ts";
import { loggedRowOf, usedCreditsOf } from "./usage-rows.ts";
import { type Json, NATIVE_PATH, parseSse, TOOL } from "./wire.ts";

// Chat `n` and Gemini `candidateCount` on a model whose provider returns one output per call
// (Anthropic, the Responses API): one upstream call per output, merged into one reply of several
// outputs, whole or streamed (pipeline/each-output.ts).

const BARE = { ...auth(), "x-interlingua-envelope": "bare" };

/** Each choice's text, tool calls and finish, and the usage, from a chat stream. */
function readChatStream(text: string) {
  const choices = new Map<number, { text: string; calls: Json[]; finish: string | null }>();
  let usage: Json;
  let done = false;
  for (const frame of parseSse(text)) {
    if (frame.data === "[DONE]") {
      done = true;
      continue;
    }
    const chunk = JSON.parse(frame.data);
    if (chunk.error !== undefined) throw new Error(`stream error: ${frame.data}`);
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices ?? []) {
      const into = choices.get(choice.index) ?? { text: "", calls: [], finish: null };
      into.text += choice.delta.content ?? "";
      for (const call of choice.delta.tool_calls ?? []) {
        if (call.id !== undefined) into.calls.push({ name: call.function.name, arguments: "" });
        into.calls[into.calls.length - 1].arguments += call.function.arguments ?? "";
      }
      if (choice.finish_reason !== null) {
        expect(into.finish, "one finish per choice").toBeNull();
        into.finish = choice.finish_reason;
      }
      choices.set(choice.index, into);
    }
  }
  return { choices, usage, done };
}

/** Upstream calls the gateway's pool has under way at the simulator. */
const running = (stack: Stack) => {
  const stats = stack.gateway.services.agent.stats as Record<string, { running: number }>;
  return stats[new URL(stack.sim.url).origin]?.running ?? 0;
};

const sentUpstream = (stack: Stack, from: number) =>
  stack.sim.requests.slice(from).filter((r) => r.method === "POST");

describe.each([
  ["txtB-sonnet-4-6", "/v1/messages"],
  ["txtA-5.2-pro", "/v1/responses"],
])("several outputs of %s, one upstream call each", (model, upstreamPath) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ extraChannels: responsesChannel("txtA-5.2-pro") });
  });
  afterAll(() => stack.close());

  it("a whole chat reply has n choices, and the usage of every call", async () => {
    const before = stack.sim.requests.length;
    const reply = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      { model, n: 3, max_tokens: 64, messages: [{ role: "user", content: "Say hi." }] },
      BARE,
    );
    expect(reply.status, reply.text).toBe(200);
    const calls = sentUpstream(stack, before);
    expect(calls.map((c) => c.path)).toEqual([upstreamPath, upstreamPath, upstreamPath]);
    for (const call of calls) expect((call.body as Json).n).toBeUndefined();
    const { choices, usage } = reply.json;
    expect(choices.map((c: Json) => c.index)).toEqual([0, 1, 2]);
    for (const choice of choices) {
      expect(choice.message.content).toMatch(/Say hi/);
      expect(choice.finish_reason).toBe("stop");
    }
    const one = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      { model, max_tokens: 64, messages: [{ role: "user", content: "Say hi." }] },
      BARE,
    );
    expect(usage.prompt_tokens).toBe(3 * one.json.usage.prompt_tokens);
    expect(usage.completion_tokens).toBe(3 * one.json.usage.completion_tokens);
    expect(reply.headers.get("x-interlingua-warnings")).toMatch(/sampling\.n=mapped/);
    // Charged once, for all three calls.
    const row = await loggedRowOf(stack, reply.headers.get("x-request-id"));
    expect(row.promptTokens).toBe(usage.prompt_tokens);
    expect(row.completionTokens).toBe(usage.completion_tokens);
  });

  it("a stream carries every choice to its finish, with parallel tool calls", async () => {
    const reply = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      {
        model,
        n: 2,
        stream: true,
        stream_options: { include_usage: true },
        tools: [{ type: "function", function: TOOL }],
        messages: [{ role: "user", content: "weather? [[tool:get_weather]] [[len:30]]" }],
      },
      BARE,
    );
    expect(reply.status, reply.text).toBe(200);
    const { choices, usage, done } = readChatStream(reply.text);
    expect(done).toBe(true);
    expect([...choices.keys()].sort()).toEqual([0, 1]);
    for (const choice of choices.values()) {
      expect(choice.finish).toBe("tool_calls");
      expect(choice.calls.map((c) => c.name)).toEqual(["get_weather"]);
      expect(JSON.parse(choice.calls[0].arguments)).toBeTypeOf("object");
    }
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    const row = await loggedRowOf(stack, reply.headers.get("x-request-id"));
    expect(row.promptTokens).toBe(usage.prompt_tokens);
  });

  it("one call failing fails the whole reply, and nothing is charged", async () => {
    const before = stack.sim.requests.length;
    const used = await usedCreditsOf(stack);
    const reply = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      {
        model,
        n: 2,
        messages: [{ role: "user", content: `Say hi. [[fault:status=400,times=1]] ${model}` }],
      },
      BARE,
    );
    expect(reply.status).toBe(400);
    // The provider's refusal of the one call, not a refusal of `n`.
    expect(reply.json.error.message).not.toMatch(/\bn\b/);
    expect(sentUpstream(stack, before)).toHaveLength(2);
    expect(await usedCreditsOf(stack)).toBe(used);
  });

  it("a stream one of whose calls breaks ends with an error, not a finish", async () => {
    const reply = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      {
        model,
        n: 2,
        stream: true,
        messages: [
          { role: "user", content: `[[len:40]] [[fault:error-after=3,times=1]] ${model} cut` },
        ],
      },
      BARE,
    );
    expect(reply.status).toBe(200);
    const frames = parseSse(reply.text).filter((f) => f.data !== "[DONE]");
    const last = JSON.parse(frames.at(-1)!.data);
    expect(last.error, reply.text.slice(-600)).toBeDefined();
    const finishes = frames.flatMap((f) =>
      (JSON.parse(f.data).choices ?? []).filter((c: Json) => c.finish_reason != null),
    );
    expect(finishes.length).toBeLessThan(2);
  });

  it("a client that leaves mid-stream cancels every call, and is charged once", async () => {
    const controller = new AbortController();
    const response = await fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { ...BARE, "content-type": "application/json" },
      body: JSON.stringify({
        model,
        n: 2,
        stream: true,
        messages: [
          { role: "user", content: `[[len:400]] [[fault:chunk-delay=100]] ${model} leave` },
        ],
      }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    await response.body!.getReader().read();
    controller.abort();
    // Both upstream calls end (cancelled, or drained within the gateway's bound), not run out.
    await eventually(() => running(stack) === 0, 15_000);
    const row = await loggedRowOf(stack, response.headers.get("x-request-id"));
    expect(row.promptTokens).toBeGreaterThan(0);
    const after = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      { model, n: 2, messages: [{ role: "user", content: "still up?" }] },
      BARE,
    );
    expect(after.status).toBe(200);
  });
});

describe("Gemini candidateCount on an Anthropic model", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it.each([false, true])("answers two candidates (stream %s)", async (stream) => {
    const reply = await postJson(
      `${stack.gateway.url}${NATIVE_PATH("txtB-sonnet-4-6", stream)}`,
      {
        contents: [{ role: "user", parts: [{ text: "Say hi." }] }],
        generationConfig: { candidateCount: 2, maxOutputTokens: 64 },
      },
      BARE,
    );
    expect(reply.status, reply.text).toBe(200);
    const chunks: Json[] = stream
      ? parseSse(reply.text).map((f) => JSON.parse(f.data))
      : [reply.json];
    const texts = new Map<number, string>();
    const finishes = new Map<number, string>();
    for (const chunk of chunks) {
      for (const candidate of chunk.candidates ?? []) {
        const text = (candidate.content?.parts ?? []).map((p: Json) => p.text ?? "").join("");
        texts.set(candidate.index ?? 0, (texts.get(candidate.index ?? 0) ?? "") + text);
        if (candidate.finishReason) finishes.set(candidate.index ?? 0, candidate.finishReason);
      }
    }
    expect([...texts.keys()].sort()).toEqual([0, 1]);
    for (const text of texts.values()) expect(text).toMatch(/Say hi/);
    expect([...finishes.values()]).toEqual(["STOP", "STOP"]);
  });
});
