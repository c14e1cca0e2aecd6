import { FunctionCallingConfigMode, GoogleGenAI } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY, type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

// A Gemini app (@google/genai) on /v1beta against every model family: what its config asks for
// reaches each upstream in that upstream's terms, or is warned.

const BARE = { "x-interlingua-envelope": "bare" };
const WARNINGS = "x-interlingua-warnings";
let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const client = () =>
  new GoogleGenAI({ apiKey: KEY, httpOptions: { baseUrl: stack.gateway.url, headers: BARE } });
const params = { type: "object", properties: { q: { type: "string" } } };
const tools = [
  {
    functionDeclarations: ["get_weather", "get_time", "send_mail"].map((name) => ({
      name,
      parametersJsonSchema: params,
    })),
  },
];
const upstreamBody = () => stack.sim.requests.at(-1)?.body as Json;

describe("functionCallingConfig VALIDATED with allowedFunctionNames", () => {
  const ask = (model: string) =>
    client().models.generateContent({
      model,
      contents: "hi",
      config: {
        tools,
        toolConfig: {
          functionCallingConfig: {
            mode: FunctionCallingConfigMode.VALIDATED,
            allowedFunctionNames: ["get_weather", "get_time"],
          },
        },
      },
    });
  const warnings = (reply: Awaited<ReturnType<typeof ask>>) =>
    reply.sdkHttpResponse?.headers?.[WARNINGS]?.split(",") ?? [];

  it("reaches an OpenAI chat upstream as allowed_tools auto; only the validation is warned", async () => {
    const reply = await ask("txtA-5");
    expect(upstreamBody().tool_choice).toEqual({
      type: "allowed_tools",
      allowed_tools: {
        mode: "auto",
        tools: [
          { type: "function", function: { name: "get_weather" } },
          { type: "function", function: { name: "get_time" } },
        ],
      },
    });
    expect(upstreamBody().tools.length).toBe(3);
    expect(warnings(reply)).toContain("toolConfig.functionCallingConfig.mode=dropped");
    expect(warnings(reply)).not.toContain(
      "toolConfig.functionCallingConfig.allowedFunctionNames=dropped",
    );
  });

  it("reaches an Anthropic upstream as only the allowed tools", async () => {
    const reply = await ask("txtB-sonnet-4-6");
    expect(upstreamBody().tools.map((t: Json) => t.name)).toEqual(["get_weather", "get_time"]);
    expect(warnings(reply)).not.toContain(
      "toolConfig.functionCallingConfig.allowedFunctionNames=dropped",
    );
  });

  it("reaches a Gemini upstream as sent, the declarations whole", async () => {
    await ask("txtC-2.5-pro");
    expect(upstreamBody().toolConfig).toEqual({
      functionCallingConfig: {
        mode: "VALIDATED",
        allowedFunctionNames: ["get_weather", "get_time"],
      },
    });
    expect(upstreamBody().tools[0].functionDeclarations.length).toBe(3);
  });
});

describe("a chat session (chats.sendMessageStream) keeps its history toward every family", () => {
  const weather = [
    {
      functionDeclarations: [
        {
          name: "get_weather",
          parametersJsonSchema: {
            type: "object",
            properties: { city: { type: "string" } },
            required: ["city"],
          },
        },
      ],
    },
  ];
  for (const model of ["txtA-5", "txtB-sonnet-4-6", "txtC-2.5-pro", "txtD-v3.2"]) {
    it(`${model}: turn 2 carries turn 1's prompt and call, the history is whole`, async () => {
      const chat = client().chats.create({ model, config: { tools: weather } });
      const send = async (message: Parameters<typeof chat.sendMessageStream>[0]["message"]) => {
        const chunks = [];
        for await (const chunk of await chat.sendMessageStream({ message })) chunks.push(chunk);
        return chunks;
      };
      const calls = (await send("weather? [[tool]]")).flatMap((c) => c.functionCalls ?? []);
      expect(calls.map((c) => c.name)).toEqual(["get_weather"]);
      const id = calls[0]?.id;
      const response = { name: "get_weather", response: { t: 20 }, ...(id ? { id } : {}) };
      await send([{ functionResponse: response }]);
      // The session sends its history again: without content on the last frame of a turn the
      // SDK drops that turn and the user input before it.
      expect(JSON.stringify(upstreamBody())).toContain("weather?");
      expect(JSON.stringify(upstreamBody())).toContain("sample city");
      // Toward chat the call's turn is one assistant message, its result right after it.
      if (model === "txtA-5" || model === "txtD-v3.2") {
        const sent = upstreamBody().messages as Json[];
        const at = sent.findIndex((m) => m.tool_calls !== undefined);
        expect(sent.slice(at).map((m) => m.role)).toEqual(["assistant", "tool"]);
      }
      // One content a frame: a turn is a run of the same role.
      const roles = chat.getHistory(true).map((c) => c.role);
      expect(roles.filter((role, i) => role !== roles[i - 1])).toEqual([
        "user",
        "model",
        "user",
        "model",
      ]);
    });
  }
});
