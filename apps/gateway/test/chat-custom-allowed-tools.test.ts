import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, responsesChannel, type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

// A chat client's custom tools (`{type: "custom", custom: {name, ...}}`) inside an allowed_tools
// choice reach every upstream family as its function tools do: lowered to function tools where
// the provider has no custom tools, kept custom toward the Responses API, and the restriction
// kept (Anthropic gets only the allowed tools, Gemini allowedFunctionNames or only the allowed
// declarations).

const BARE = { ...auth(), "x-interlingua-envelope": "bare" };
const params = { type: "object", properties: { q: { type: "string" } } };
const ALLOWED = ["get_weather", "apply_patch"];

const chatBody = (model: string, mode: "auto" | "required") => ({
  model,
  messages: [{ role: "user", content: "hi" }],
  tools: [
    { type: "function", function: { name: "get_weather", parameters: params } },
    { type: "function", function: { name: "send_mail", parameters: params } },
    { type: "custom", custom: { name: "apply_patch", description: "Applies a patch" } },
    { type: "custom", custom: { name: "run_sql" } },
  ],
  tool_choice: {
    type: "allowed_tools",
    allowed_tools: {
      mode,
      tools: [
        { type: "function", function: { name: "get_weather" } },
        { type: "custom", custom: { name: "apply_patch" } },
      ],
    },
  },
});

describe("a chat client's allowed custom tools reach every upstream family", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ extraChannels: responsesChannel("txtA-5.2-pro") });
  });
  afterAll(() => stack?.close());
  const lastSent = (path: RegExp) =>
    [...stack.sim.requests].reverse().find((r) => path.test(r.path))?.body as Json;
  const post = (body: object) => postJson(`${stack.gateway.url}/v1/chat/completions`, body, BARE);
  const warnings = (res: { headers: Headers }) => res.headers.get("x-interlingua-warnings") ?? "";

  for (const mode of ["auto", "required"] as const) {
    it(`${mode}: Anthropic gets only the allowed tools, the custom one as a function`, async () => {
      const res = await post(chatBody("txtB-sonnet-4-6", mode));
      expect(res.status, res.text).toBe(200);
      const sent = lastSent(/\/v1\/messages$/);
      expect((sent.tools as Json[]).map((t) => t.name)).toEqual(ALLOWED);
      // The custom tool's free-form input travels in one string.
      expect((sent.tools as Json[])[1]?.input_schema).toMatchObject({
        properties: { input: { type: "string" } },
      });
      expect(sent.tool_choice).toEqual({ type: mode === "auto" ? "auto" : "any" });
      expect(warnings(res)).not.toContain("tool_choice");
      expect(warnings(res)).not.toContain("tools.namespace");
    });

    it(`${mode}: Gemini gets the restriction, the custom tool declared`, async () => {
      const res = await post(chatBody("txtC-2.5-pro", mode));
      expect(res.status, res.text).toBe(200);
      const sent = lastSent(/:(stream)?[gG]enerateContent/);
      const declared = (sent.tools as Json[])
        .flatMap((t) => (t.functionDeclarations as Json[] | undefined) ?? [])
        .map((d) => d.name);
      expect(warnings(res)).not.toContain("tool_choice");
      if (mode === "required") {
        expect(declared).toEqual(["get_weather", "send_mail", "apply_patch", "run_sql"]);
        expect(sent.toolConfig).toEqual({
          functionCallingConfig: { mode: "ANY", allowedFunctionNames: ALLOWED },
        });
      } else {
        expect(declared).toEqual(ALLOWED);
      }
    });
  }

  it("the Responses API gets custom tools and an allowed_tools naming them custom", async () => {
    const res = await post(chatBody("txtA-5.2-pro", "required"));
    expect(res.status, res.text).toBe(200);
    const sent = lastSent(/\/v1\/responses$/);
    expect((sent.tools as Json[]).filter((t) => t.type === "custom")).toEqual([
      { type: "custom", name: "apply_patch", description: "Applies a patch" },
      { type: "custom", name: "run_sql" },
    ]);
    expect(sent.tool_choice).toEqual({
      type: "allowed_tools",
      mode: "required",
      tools: [
        { type: "function", name: "get_weather" },
        { type: "custom", name: "apply_patch" },
      ],
    });
  });

  it("an OpenAI chat upstream gets the choice as sent", async () => {
    const body = chatBody("txtA-5", "auto");
    const res = await post(body);
    expect(res.status, res.text).toBe(200);
    const sent = lastSent(/\/v1\/chat\/completions$/);
    expect(sent.tools).toEqual(body.tools);
    expect(sent.tool_choice).toEqual(body.tool_choice);
  });
});
