import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY, postJson, responsesChannel, type Stack, startStack } from "./stack.ts";

// The Anthropic SDK's tool runner holds its conversation in a message thread by default
// (`thread: {type: "create"}`, then `{type: "continue", previous_message_id}` with only the new
// turn). Toward a model of another family the gateway dropped `thread`, so the continuing turn
// reached the model as a lone tool result, with no tools and no conversation (OpenAI refuses
// it; the gateway could not even name a Gemini function). A thread to continue is now answered
// `thread_not_found`, as Anthropic answers a thread it does not hold, and the SDK replays the
// whole conversation.

const MODELS = ["txtA-5", "txtC-2.5-pro", "txtA-5.2-codex"];

describe("Anthropic message threads toward other families", () => {
  let stack: Stack;
  let client: Anthropic;
  beforeAll(async () => {
    stack = await startStack({ extraChannels: responsesChannel("txtA-5.2-codex") });
    client = new Anthropic({ apiKey: KEY, baseURL: stack.gateway.url, maxRetries: 0 });
  });
  afterAll(() => stack.close());

  for (const model of MODELS) {
    it(`the SDK's tool runner finishes its loop on ${model}`, async () => {
      const runner = client.beta.messages.toolRunner({
        model,
        max_tokens: 1024,
        messages: [{ role: "user", content: "Paris? [[tool:get_weather]]" }],
        tools: [
          {
            name: "get_weather",
            description: "Weather of a city",
            input_schema: {
              type: "object",
              properties: { city: { type: "string" } },
              required: ["city"],
            },
            run: async () => '{"temp":21}',
          },
        ],
      });
      const final = await runner.runUntilDone();
      expect(final.content).toEqual([{ type: "text", text: 'echo: {"temp":21}' }]);
      // The model was given the whole conversation: the tool's declaration and its call.
      const last = JSON.stringify(stack.sim.requests.at(-1)?.body);
      expect(last.split("get_weather").length - 1).toBeGreaterThanOrEqual(2);
    });
  }

  it("a thread to continue is thread_not_found, in Anthropic's body; create is dropped", async () => {
    const url = `${stack.gateway.url}/v1/messages`;
    const headers = { "x-api-key": KEY, "anthropic-version": "2023-06-01" };
    const turn = {
      model: "txtA-5",
      max_tokens: 100,
      messages: [{ role: "user", content: "hi" }],
    };
    const continued = await postJson(
      url,
      { ...turn, thread: { type: "continue", previous_message_id: "msg_1" } },
      headers,
    );
    expect(continued.status).toBe(404);
    expect(continued.json.type).toBe("error");
    expect(continued.json.error).toMatchObject({
      type: "not_found_error",
      details: { error_code: "thread_not_found" },
    });
    const created = await postJson(url, { ...turn, thread: { type: "create" } }, headers);
    expect(created.status).toBe(200);
    expect(created.headers.get("x-interlingua-warnings")).toContain("thread=dropped");
  });
});
