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
