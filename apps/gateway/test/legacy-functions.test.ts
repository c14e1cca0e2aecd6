import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack } from "./stack.ts";
import { type Json, parseSse, TOOL } from "./wire.ts";

// OpenAI's deprecated function calling (`functions`, `function_call`, `role: "function"`), which
// its chat endpoint still serves: a client of it runs a two-turn loop on any model, and gets its
// call back the way it asked (packages/fmt-chat chat-legacy-functions.ts).

const BARE = { ...auth(), "x-interlingua-envelope": "bare" };

/** The assistant message a legacy client builds from a stream's `delta.function_call` chunks. */
function accumulateLegacy(text: string): { message: Json; finish: string | null } {
  const message: Json = { role: "assistant", content: null, function_call: undefined };
  let finish: string | null = null;
  for (const frame of parseSse(text)) {
    if (frame.data === "[DONE]") continue;
    const choice = JSON.parse(frame.data).choices?.[0];
    if (choice === undefined) continue;
    expect(choice.delta.tool_calls).toBeUndefined();
    const call = choice.delta.function_call;
    if (call !== undefined) {
      message.function_call ??= { name: call.name, arguments: "" };
      message.function_call.arguments += call.arguments ?? "";
    }
    finish = choice.finish_reason ?? finish;
  }
  return { message, finish };
}

describe.each(["txtB-sonnet-4-6", "txtA-5"])("legacy functions on %s", (model) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it.each([false, true])(
    "a two-turn loop (stream %s) answers 200 with function_call",
    async (stream) => {
      const user = { role: "user", content: "weather in Paris? [[tool:get_weather]]" };
      const first = await postJson(
        `${stack.gateway.url}/v1/chat/completions`,
        { model, messages: [user], functions: [TOOL], function_call: "auto", stream },
        BARE,
      );
      expect(first.status, first.text).toBe(200);
      expect(first.headers.get("x-interlingua-warnings") ?? "").not.toMatch(/function/);
      const { message, finish } = stream
        ? accumulateLegacy(first.text)
        : { message: first.json.choices[0].message, finish: first.json.choices[0].finish_reason };
      expect(finish).toBe("function_call");
      expect(message.tool_calls).toBeUndefined();
      expect(message.function_call.name).toBe("get_weather");
      expect(JSON.parse(message.function_call.arguments)).toBeTypeOf("object");

      const second = await postJson(
        `${stack.gateway.url}/v1/chat/completions`,
        {
          model,
          messages: [
            user,
            { role: "assistant", content: null, function_call: message.function_call },
            { role: "function", name: "get_weather", content: "sunny, 21C" },
          ],
          functions: [TOOL],
          stream,
        },
        BARE,
      );
      expect(second.status, second.text).toBe(200);
      // OpenAI gets the fields as the client sent them; another provider a paired call and result.
      const upstream = stack.sim.requests.at(-1)?.body as Json;
      if (model === "txtA-5") {
        expect(upstream.functions).toEqual([TOOL]);
        expect(upstream.messages.at(-1)).toEqual({
          role: "function",
          name: "get_weather",
          content: "sunny, 21C",
        });
      } else {
        const [call, result] = upstream.messages.slice(-2).map((m: Json) => m.content.at(-1));
        expect(call).toMatchObject({
          type: "tool_use",
          id: "function_call_0",
          name: "get_weather",
        });
        expect(result).toMatchObject({ type: "tool_result", tool_use_id: "function_call_0" });
      }
      expect(second.headers.get("x-interlingua-warnings") ?? "").not.toMatch(/function/);
      // The simulator answers a turn ending in tool results with `echo: <results>`.
      expect(second.text).toContain("sunny, 21C");
    },
  );
});
