import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCHEMAS } from "./official-schema-validators.ts";
import { KEY, responsesChannel, type Stack, startStack } from "./stack.ts";
import { type Json, parseSse } from "./wire.ts";

// Anthropic clients on every family, as apps drive them: a parallel tool loop through
// `messages.stream().finalMessage()` whose results carry an error flag and an image, then the
// answer; every reply and stream frame checked against the SDK's own types and Anthropic's event
// order. An image a tool returned used to be dropped toward chat models (chat tool messages
// carry text only); it now follows the results in a user message.

const MODELS = ["txtA-5", "txtA-5.2-pro", "txtB-sonnet-4-6", "txtC-2.5-pro", "txtD-v3.2"];
const PNG =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const TOOLS = [
  {
    name: "get_weather",
    description: "Weather of a city",
    input_schema: {
      type: "object" as const,
      properties: { city: { type: "string" } },
      required: ["city"],
    },
  },
  { name: "screenshot", description: "A screenshot", input_schema: { type: "object" as const } },
];
/** Anthropic's stream grammar: blocks open, take deltas and close in turn; pings anywhere. */
const ORDER =
  /^message_start,(content_block_start,(content_block_delta,)*content_block_stop,)*message_delta,message_stop$/;

describe("Anthropic SDK tool loops on every family", () => {
  let stack: Stack;
  let client: Anthropic;
  beforeAll(async () => {
    stack = await startStack({ extraChannels: responsesChannel("txtA-5.2-pro") });
    client = new Anthropic({ apiKey: KEY, baseURL: stack.gateway.url, maxRetries: 0 });
  });
  afterAll(() => stack.close());

  const rawStream = async (body: object) => {
    const response = await fetch(`${stack.gateway.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: JSON.stringify({ ...body, stream: true }),
    });
    return parseSse(await response.text());
  };

  for (const model of MODELS) {
    it(`${model}: parallel calls, an error result and an image result, then the answer`, async () => {
      const ask = { role: "user" as const, content: "[[tools:2]] weather and a screenshot" };
      const first = await client.messages
        .stream({ model, max_tokens: 1024, tools: TOOLS, messages: [ask] })
        .finalMessage();
      // The SDK adds `parsed_output` to what it returns; the wire reply is what is checked.
      const { parsed_output: _, ...wire } = first as typeof first & { parsed_output?: unknown };
      expect(SCHEMAS.anthropicMessage(wire)).toEqual([]);
      expect(first.stop_reason).toBe("tool_use");
      const calls = first.content.filter((b) => b.type === "tool_use");
      expect(calls.map((c) => c.name)).toEqual(["get_weather", "screenshot"]);
      const [weather, shot] = calls;
      if (weather === undefined || shot === undefined) throw new Error("two calls expected");
      const body = {
        model,
        max_tokens: 1024,
        tools: TOOLS,
        messages: [
          ask,
          { role: "assistant" as const, content: first.content },
          {
            role: "user" as const,
            content: [
              {
                type: "tool_result" as const,
                tool_use_id: weather.id,
                is_error: true,
                content: "city unknown",
              },
              {
                type: "tool_result" as const,
                tool_use_id: shot.id,
                content: [
                  { type: "text" as const, text: "the screen" },
                  {
                    type: "image" as const,
                    source: {
                      type: "base64" as const,
                      media_type: "image/png" as const,
                      data: PNG,
                    },
                  },
                ],
              },
            ],
          },
        ],
      };
      const answer = await client.messages.stream(body).finalMessage();
      expect(answer.stop_reason).toBe("end_turn");
      expect(answer.stop_sequence).toBeNull();
      // Whatever the family, the image reached the model.
      expect(JSON.stringify(stack.sim.requests.at(-1)?.body)).toContain(PNG);
      const frames = await rawStream(body);
      const events = frames.map((f) => f.event).filter((e) => e !== "ping");
      expect(events.join(",")).toMatch(ORDER);
      expect(
        frames
          .filter((f) => f.event !== "ping")
          .flatMap((f) => SCHEMAS.anthropicEvent(JSON.parse(f.data) as Json)),
      ).toEqual([]);
    });
  }

  it("toward chat, a tool's image follows the tool messages in a user message", async () => {
    await client.messages.create({
      model: "txtA-5",
      max_tokens: 100,
      tools: TOOLS,
      messages: [
        { role: "user", content: "screenshot please" },
        {
          role: "assistant",
          content: [{ type: "tool_use", id: "call_1", name: "screenshot", input: {} }],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "call_1",
              content: [{ type: "image", source: { type: "url", url: "https://x.test/s.png" } }],
            },
          ],
        },
      ],
    });
    const sent = (stack.sim.requests.at(-1)?.body as Json | undefined)?.messages as Json[];
    expect(sent.slice(-2)).toEqual([
      { role: "tool", tool_call_id: "call_1", content: "" },
      {
        role: "user",
        content: [
          { type: "text", text: "Image from tool call call_1:" },
          { type: "image_url", image_url: { url: "https://x.test/s.png" } },
        ],
      },
    ]);
  });
});
