import { afterAll, beforeAll, it } from "vitest";
import { SCRIPTED_MODEL, scriptedChannels, startScriptedUpstream, sse } from "./scripted-upstream.ts";
import { auth, postJson, type Stack, startStack } from "./stack.ts";
import { REQUEST } from "./wire.ts";
let upstream: Awaited<ReturnType<typeof startScriptedUpstream>>;
let stack: Stack;
beforeAll(async () => {
  upstream = await startScriptedUpstream();
  stack = await startStack({ channels: scriptedChannels(upstream.url) }, { breaker: { failureThreshold: 1000, cooldownMs: 60_000 } });
});
afterAll(async () => { await stack?.close(); await upstream?.close(); });
const base = { id: "c1", created: 1, model: "m" };
it("probe", async () => {
  upstream.script((r) => r.stream ? { body: sse([
    { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Par' } }] }, finish_reason: null }] },
    { ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta: {}, finish_reason: "length" }] },
    { ...base, object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } },
    "[DONE]",
  ]) } : { body: JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Par' } }] }, finish_reason: "length" }], usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } }) });
  for (const client of ["chat", "responses", "messages", "native"] as const) for (const stream of [false, true]) {
    const { path, body } = REQUEST[client]({ model: SCRIPTED_MODEL.openai, text: "hi", stream, tools: true });
    const res = await postJson(stack.gateway.url + path, body, auth());
    console.log("###", client, stream, res.status, res.headers.get("x-interlingua-warnings"), res.text.slice(0, 1500));
  }
});
