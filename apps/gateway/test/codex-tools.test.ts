import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { type Json, parseSse } from "./wire.ts";

// Codex CLI's default Responses request, through the gateway to every upstream family: its
// namespace, custom (grammar) and tool_search tools are never a 400; toward the Responses API they
// go as they came; elsewhere they become function tools and the calls come back as the client
// declared them (a namespaced function_call, a custom_tool_call with raw input), stream and not.

const BARE = { ...auth(), "x-interlingua-envelope": "bare" };
const GRAMMAR = 'start: begin_patch hunk+ end_patch\nbegin_patch: "*** Begin Patch" LF';
const TOOLS = [
  {
    type: "namespace",
    name: "multi_agent_v1",
    description: "Sub-agents",
    tools: [
      {
        type: "function",
        name: "spawn_agent",
        description: "Start a sub-agent",
        parameters: {
          type: "object",
          properties: { message: { type: "string" } },
          required: ["message"],
        },
        strict: false,
      },
    ],
  },
  {
    type: "custom",
    name: "apply_patch",
    description: "Edit files with a patch",
    format: { type: "grammar", syntax: "lark", definition: GRAMMAR },
  },
  { type: "tool_search", execution: "client", description: "Search deferred tools" },
];
const UPSTREAMS = [
  { family: "openai", model: "txtA-5", path: /\/v1\/chat\/completions$/ },
  { family: "anthropic", model: "txtB-sonnet-4-6", path: /\/v1\/messages$/ },
  { family: "gemini", model: "txtC-2.5-pro", path: /:(stream)?[gG]enerateContent/ },
  { family: "openai-responses", model: "txtA-5.2-codex", path: /\/v1\/responses$/ },
] as const;

const codexBody = (model: string, input: Json[], stream: boolean) => ({
  model,
  instructions: "You are Codex.",
  input,
  tools: TOOLS,
  tool_choice: "auto",
  parallel_tool_calls: true,
  reasoning: { effort: "xhigh", summary: "auto" },
  store: false,
  stream,
  include: ["reasoning.encrypted_content"],
  prompt_cache_key: "codex-session-1",
});
const userItem = (text: string) => ({
  type: "message",
  role: "user",
  content: [{ type: "input_text", text }],
});

/** The output items of a Responses stream: each `response.output_item.done` item. */
const streamedItems = (text: string): Json[] =>
  parseSse(text)
    .filter((f) => f.event === "response.output_item.done")
    .map((f) => JSON.parse(f.data).item);

describe("Codex CLI's tools on every upstream family", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      extraChannels: (url) => [
        {
          name: "or",
          protocol: "openai-responses",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtA-5.2-codex"],
        },
      ],
    });
  });
  afterAll(() => stack.close());

  const lastSent = (path: RegExp) =>
    [...stack.sim.requests].reverse().find((r) => path.test(r.path))?.body as Json;

  for (const upstream of UPSTREAMS) {
    for (const stream of [false, true]) {
      it(`${upstream.family}, ${stream ? "stream" : "non-stream"}: calls come back as declared, and go back`, async () => {
        const first = userItem("edit the file [[tools:2]]");
        const res = await postJson(
          `${stack.gateway.url}/v1/responses`,
          codexBody(upstream.model, [first], stream),
          BARE,
        );
        expect(res.status, res.text).toBe(200);
        const output: Json[] = stream ? streamedItems(res.text) : res.json.output;
        const calls = output.filter((i) => i.type !== "reasoning" && i.type !== "message");
        expect(calls.map((c) => c.type)).toEqual(["function_call", "custom_tool_call"]);
        expect(calls[0]).toMatchObject({ name: "spawn_agent", namespace: "multi_agent_v1" });
        expect(JSON.parse(calls[0].arguments)).toHaveProperty("message");
        expect(calls[1]).toMatchObject({ name: "apply_patch" });
        expect(typeof calls[1].input).toBe("string");
        expect(calls[1].input).not.toMatch(/^\{"input"/);
        if (stream) {
          const types = parseSse(res.text).map((f) => f.event);
          expect(types).toContain("response.custom_tool_call_input.done");
        }

        const sent = lastSent(upstream.path);
        const wire = JSON.stringify(sent);
        if (upstream.family === "openai-responses") {
          // Passed through as they came, tool_search and xhigh included.
          expect(sent.tools).toEqual(TOOLS);
          expect(sent.reasoning.effort).toBe("xhigh");
        } else {
          expect(wire).toContain("multi_agent_v1__spawn_agent");
          expect(wire).toContain("*** Begin Patch");
          expect(wire).not.toContain("tool_search");
          expect(res.headers.get("x-interlingua-warnings")).toContain("tools.tool_search=mapped");
        }

        // Turn 2: Codex sends the calls and their outputs back.
        const second = await postJson(
          `${stack.gateway.url}/v1/responses`,
          codexBody(
            upstream.model,
            [
              first,
              ...output.filter((i) => i.type !== "message"),
              { type: "function_call_output", call_id: calls[0].call_id, output: "agent started" },
              { type: "custom_tool_call_output", call_id: calls[1].call_id, output: "Done!" },
            ],
            stream,
          ),
          BARE,
        );
        expect(second.status, second.text).toBe(200);
        const back = JSON.stringify(lastSent(upstream.path));
        expect(back).toContain("agent started");
        expect(back).toContain("Done!");
        if (upstream.family === "openai-responses") {
          expect(back).toContain('"custom_tool_call_output"');
          expect(back).toContain('"namespace":"multi_agent_v1"');
        } else {
          expect(back).toContain("multi_agent_v1__spawn_agent");
          // The custom call's raw input travels as the lowered tool's one string argument (a
          // JSON string toward chat, an object toward Anthropic and Gemini).
          const asObject = JSON.stringify({ input: calls[1].input });
          expect(
            [asObject, JSON.stringify(asObject)].some((s) => back.includes(s.slice(0, -1))),
          ).toBe(true);
        }
      });
    }
  }

  it("allowed_tools is carried toward the Responses API and restricts the tools elsewhere", async () => {
    for (const upstream of UPSTREAMS) {
      const res = await postJson(
        `${stack.gateway.url}/v1/responses`,
        {
          ...codexBody(upstream.model, [userItem("hi")], false),
          tool_choice: {
            type: "allowed_tools",
            mode: "auto",
            tools: [{ type: "custom", name: "apply_patch" }],
          },
        },
        BARE,
      );
      expect(res.status, `${upstream.family}: ${res.text}`).toBe(200);
      const sent = lastSent(upstream.path);
      expect(res.headers.get("x-interlingua-warnings") ?? "").not.toContain("tool_choice");
      if (upstream.family === "openai-responses") {
        expect(sent.tool_choice).toMatchObject({ type: "allowed_tools" });
      } else if (upstream.family === "openai") {
        // The custom tool is a function on chat.
        expect(sent.tool_choice).toEqual({
          type: "allowed_tools",
          allowed_tools: {
            mode: "auto",
            tools: [{ type: "function", function: { name: "apply_patch" } }],
          },
        });
      } else if (upstream.family === "anthropic") {
        expect((sent.tools as Json[]).map((t) => t.name)).toEqual(["apply_patch"]);
      } else {
        const declarations = (sent.tools as Json[]).flatMap(
          (t) => (t.functionDeclarations as Json[] | undefined) ?? [],
        );
        expect(declarations.map((d) => d.name)).toEqual(["apply_patch"]);
      }
    }
  });

  it("chat input_audio and allowed_tools reach an OpenAI upstream as sent", async () => {
    const body = {
      model: "txtA-5",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "what is said?" },
            { type: "input_audio", input_audio: { data: "UklGRiQAAABXQVZF", format: "wav" } },
          ],
        },
      ],
      tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }],
      tool_choice: {
        type: "allowed_tools",
        allowed_tools: { mode: "auto", tools: [{ type: "function", function: { name: "f" } }] },
      },
    };
    const res = await postJson(`${stack.gateway.url}/v1/chat/completions`, body, BARE);
    expect(res.status, res.text).toBe(200);
    const sent = lastSent(/\/v1\/chat\/completions$/);
    expect(sent.messages).toEqual(body.messages);
    expect(sent.tool_choice).toEqual(body.tool_choice);
  });
});
