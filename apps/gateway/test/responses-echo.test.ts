import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, responsesChannel, type Stack, startStack } from "./stack.ts";
import { type Json, parseSse } from "./wire.ts";

// Issue 24 point 5: OpenAI's Response object repeats the request's settings, and its schema
// requires them (instructions, metadata, parallel_tool_calls, temperature, tool_choice, tools,
// top_p). Translated answers used to leave them out; the gateway repeats what the client sent,
// with OpenAI's defaults for the rest, in the JSON body and in every lifecycle frame.

const TOOLS = [
  {
    type: "function",
    name: "get_weather",
    description: "Weather of a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
];
const SENT = {
  instructions: "Be brief.",
  metadata: { run: "42" },
  parallel_tool_calls: false,
  temperature: 0.3,
  top_p: 0.9,
  tool_choice: "auto",
  tools: TOOLS,
  max_tool_calls: 3,
  top_logprobs: 2,
};
const DEFAULTS = {
  instructions: null,
  metadata: {},
  parallel_tool_calls: true,
  temperature: 1,
  tool_choice: "auto",
  tools: [],
  top_p: 1,
  max_tool_calls: null,
  top_logprobs: 0,
};

const UPSTREAMS = { anthropic: "txtB-sonnet-4-6", gemini: "txtC-2.5-pro", openai: "txtA-5" };

describe("a translated Responses object repeats the request's settings", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      extraChannels: responsesChannel("txtA-5.2-pro"),
    });
  });
  afterAll(() => stack.close());

  const post = async (body: Json) => {
    const res = await fetch(`${stack.gateway.url}/v1/responses`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-interlingua-envelope": "bare", ...auth() },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.text();
  };

  for (const [upstream, model] of Object.entries(UPSTREAMS)) {
    it(`non-stream, ${upstream} upstream: what was sent, and defaults for the rest`, async () => {
      const sent = JSON.parse(await post({ model, input: "hi", ...SENT }));
      expect(sent).toMatchObject(SENT);
      const plain = JSON.parse(await post({ model, input: "hi", store: false }));
      expect(plain).toMatchObject(DEFAULTS);
      expect(plain.store).toBe(false);
    });

    it(`stream, ${upstream} upstream: every lifecycle frame carries them`, async () => {
      const frames = parseSse(await post({ model, input: "hi", stream: true, ...SENT }));
      const lifecycle = frames
        .map((f) => JSON.parse(f.data) as Json)
        .filter((d) => d !== null && typeof d === "object" && d.response !== undefined);
      expect(lifecycle.map((d) => d.type)).toEqual([
        "response.created",
        "response.in_progress",
        "response.completed",
      ]);
      for (const frame of lifecycle) expect(frame.response).toMatchObject(SENT);
    });
  }

  it("a stored response read back repeats them too", async () => {
    const created = JSON.parse(await post({ model: UPSTREAMS.anthropic, input: "hi", ...SENT }));
    const res = await fetch(`${stack.gateway.url}/v1/responses/${created.id}`, {
      headers: { "x-interlingua-envelope": "bare", ...auth() },
    });
    expect(await res.json()).toMatchObject(SENT);
  });
});
