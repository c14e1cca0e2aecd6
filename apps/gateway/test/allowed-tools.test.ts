import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

// OpenAI's allowed_tools tool choice restricts the tools the model may call while the tools list
// stays whole. Toward Anthropic (no such choice) only the allowed tools are sent; toward Gemini
// `required` is mode ANY with allowedFunctionNames and `auto` sends only the allowed declarations.

const BARE = { ...auth(), "x-interlingua-envelope": "bare" };
const NAMES = ["get_weather", "get_time", "send_mail"];
const params = { type: "object", properties: { q: { type: "string" } } };

const responsesBody = (model: string, mode: "auto" | "required") => ({
  model,
  input: "hi",
  tools: NAMES.map((name) => ({ type: "function", name, parameters: params })),
  tool_choice: {
    type: "allowed_tools",
    mode,
    tools: [
      { type: "function", name: "get_weather" },
      { type: "function", name: "get_time" },
    ],
  },
});
const chatBody = (model: string, mode: "auto" | "required") => ({
  model,
  messages: [{ role: "user", content: "hi" }],
  tools: NAMES.map((name) => ({ type: "function", function: { name, parameters: params } })),
  tool_choice: {
    type: "allowed_tools",
    allowed_tools: {
      mode,
      tools: [
        { type: "function", function: { name: "get_weather" } },
        { type: "function", function: { name: "get_time" } },
      ],
    },
  },
});
const CLIENTS = [
  { client: "responses", path: "/v1/responses", body: responsesBody },
  { client: "chat", path: "/v1/chat/completions", body: chatBody },
] as const;

describe("allowed_tools reaches every upstream family as a restriction", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack?.close());

  const lastSent = (path: RegExp) =>
    [...stack.sim.requests].reverse().find((r) => path.test(r.path))?.body as Json;
  const post = (path: string, body: object) => postJson(`${stack.gateway.url}${path}`, body, BARE);

  for (const { client, path, body } of CLIENTS) {
    for (const mode of ["auto", "required"] as const) {
      it(`${client} client, ${mode}: Anthropic gets only the allowed tools`, async () => {
        const res = await post(path, body("txtB-sonnet-4-6", mode));
        expect(res.status, res.text).toBe(200);
        const sent = lastSent(/\/v1\/messages$/);
        expect((sent.tools as Json[]).map((t) => t.name)).toEqual(["get_weather", "get_time"]);
        expect(sent.tool_choice).toEqual({ type: mode === "auto" ? "auto" : "any" });
        expect(res.headers.get("x-interlingua-warnings")).toContain("tools=mapped");
        expect(res.headers.get("x-interlingua-warnings") ?? "").not.toContain("tool_choice");
      });

      it(`${client} client, ${mode}: Gemini gets the restriction`, async () => {
        const res = await post(path, body("txtC-2.5-pro", mode));
        expect(res.status, res.text).toBe(200);
        const sent = lastSent(/:(stream)?[gG]enerateContent/);
        const declared = (sent.tools as Json[])
          .flatMap((t) => (t.functionDeclarations as Json[] | undefined) ?? [])
          .map((d) => d.name);
        const warnings = res.headers.get("x-interlingua-warnings") ?? "";
        expect(warnings).not.toContain("tool_choice");
        if (mode === "required") {
          expect(declared).toEqual(NAMES);
          expect(sent.toolConfig).toEqual({
            functionCallingConfig: {
              mode: "ANY",
              allowedFunctionNames: ["get_weather", "get_time"],
            },
          });
        } else {
          expect(declared).toEqual(["get_weather", "get_time"]);
          expect(sent.toolConfig).toEqual({ functionCallingConfig: { mode: "AUTO" } });
          expect(warnings).toContain("tools=mapped");
        }
      });
    }
  }

  it("a responses client's allowed_tools reaches a chat upstream in chat's shape", async () => {
    const res = await post("/v1/responses", responsesBody("txtA-5", "required"));
    expect(res.status, res.text).toBe(200);
    const sent = lastSent(/\/v1\/chat\/completions$/);
    expect(sent.tools as Json[]).toHaveLength(3);
    expect(sent.tool_choice).toEqual(chatBody("txtA-5", "required").tool_choice);
  });
});
