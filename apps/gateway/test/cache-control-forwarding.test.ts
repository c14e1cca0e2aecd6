import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, eventually, postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { type ClientFormat, type Json, NATIVE_PATH } from "./wire.ts";

// docs/api-reference.md cache rule 8, checked on what the simulator received: whatever the client format and
// wherever it put cache_control, nothing forwarded carries it, except the one breakpoint the
// Anthropic plan places and, toward Anthropic, a messages client's own cache_control (its own
// Anthropic feature, passed through with the rest of its body).

const LONG = "Every forwarded body is checked for cache markers. ".repeat(600); // ~7.5k tokens
const MARK = { type: "ephemeral" };
const MARK_1H = { type: "ephemeral", ttl: "1h" };

type Protocol = "openai" | "anthropic" | "gemini";
const MODELS: Record<Protocol, string> = {
  openai: "txtA-5",
  anthropic: "txtB-sonnet-4-6",
  gemini: "txtC-3.6-flash",
};

/** What the upstream may receive of the client's markers. */
type Expectation =
  /** No cache_control in any request the upstream received for the call. */
  | "none"
  /** Exactly one, the Anthropic plan's breakpoint. */
  | "one-breakpoint"
  /** The client's body as sent (messages to Anthropic, same format). */
  | "client-body";

interface Case {
  client: ClientFormat;
  /** What the boundaries exercise. */
  shape: string;
  path: (model: string) => string;
  body: (model: string, tag: string) => Json;
  /** Leave a protocol out when the request means nothing there (a Gemini cache name). */
  only?: Protocol;
  expect: (protocol: Protocol) => Expectation;
}

let explicitCache = "";

const CASES: Case[] = [
  {
    client: "chat",
    shape: "boundary + system block + tools + top level (cached mode)",
    path: () => "/v1/chat/completions",
    body: (model, tag) => ({
      model,
      cache_control: MARK,
      messages: [
        { role: "system", content: [{ type: "text", text: "Be terse.", cache_control: MARK }] },
        { role: "user", content: [{ type: "text", text: `${tag} ${LONG}`, cache_control: MARK }] },
        { role: "assistant", content: "Noted." },
        { role: "user", content: "One word?" },
      ],
      tools: [
        {
          type: "function",
          function: { name: "lookup", parameters: { type: "object" } },
          cache_control: MARK,
        },
      ],
    }),
    expect: (p) => (p === "anthropic" ? "one-breakpoint" : "none"),
  },
  {
    client: "chat",
    shape: "tools, message and top level only (no plan)",
    path: () => "/v1/chat/completions",
    body: (model, tag) => ({
      model,
      cache_control: MARK,
      messages: [{ role: "user", content: `${tag} hello`, cache_control: MARK }],
      tools: [
        {
          type: "function",
          function: { name: "lookup", parameters: { type: "object" } },
          cache_control: MARK,
        },
      ],
    }),
    expect: () => "none",
  },
  {
    client: "native",
    shape: "boundary + systemInstruction + top level (cached mode)",
    path: (model) => NATIVE_PATH(model, false),
    body: (_model, tag) => ({
      cache_control: MARK,
      systemInstruction: { parts: [{ text: "Be terse.", cache_control: MARK }] },
      contents: [
        { role: "user", parts: [{ text: `${tag} ${LONG}`, cache_control: MARK }] },
        { role: "model", parts: [{ text: "Noted." }] },
        { role: "user", parts: [{ text: "One word?" }] },
      ],
    }),
    expect: (p) => (p === "anthropic" ? "one-breakpoint" : "none"),
  },
  {
    client: "native",
    shape: "systemInstruction only (ignored boundary, no plan)",
    path: (model) => NATIVE_PATH(model, false),
    body: (_model, tag) => ({
      systemInstruction: { parts: [{ text: `${tag} ${LONG}`, cache_control: MARK }] },
      contents: [{ role: "user", parts: [{ text: "One word?" }] }],
    }),
    expect: () => "none",
  },
  {
    client: "native",
    shape: "on a tool entry and a function declaration (ignored, no plan)",
    path: (model) => NATIVE_PATH(model, false),
    body: (_model, tag) => ({
      contents: [{ role: "user", parts: [{ text: `${tag} One word?` }] }],
      tools: [
        {
          functionDeclarations: [
            { name: "lookup", parameters: { type: "object" }, cache_control: MARK },
          ],
          cache_control: MARK,
        },
      ],
    }),
    expect: () => "none",
  },
  {
    client: "native",
    shape: "explicit cachedContent next to a boundary",
    path: (model) => NATIVE_PATH(model, false),
    body: (_model, tag) => ({
      cachedContent: explicitCache,
      contents: [
        { role: "user", parts: [{ text: `${tag} earlier`, cache_control: MARK }] },
        { role: "user", parts: [{ text: "One word?" }] },
      ],
    }),
    only: "gemini",
    expect: () => "none",
  },
  {
    client: "messages",
    shape: "tools, system and message breakpoints, 1h before 5m, and top level",
    path: () => "/v1/messages",
    body: (model, tag) => ({
      model,
      max_tokens: 256,
      cache_control: MARK,
      tools: [{ name: "lookup", input_schema: { type: "object" }, cache_control: MARK_1H }],
      system: [{ type: "text", text: "Be terse.", cache_control: MARK_1H }],
      messages: [
        { role: "user", content: [{ type: "text", text: `${tag} ${LONG}`, cache_control: MARK }] },
        { role: "assistant", content: "Noted." },
        { role: "user", content: "One word?" },
      ],
    }),
    expect: (p) => (p === "anthropic" ? "client-body" : "none"),
  },
  {
    client: "responses",
    shape: "input part, tool and top level",
    path: () => "/v1/responses",
    body: (model, tag) => ({
      model,
      cache_control: MARK,
      input: [
        {
          role: "user",
          content: [{ type: "input_text", text: `${tag} ${LONG}`, cache_control: MARK }],
        },
        { role: "user", content: [{ type: "input_text", text: "One word?" }] },
      ],
      tools: [
        {
          type: "function",
          name: "lookup",
          description: "Look it up",
          parameters: { type: "object" },
          cache_control: MARK,
        },
      ],
    }),
    expect: () => "none",
  },
];

const markers = (value: unknown): number =>
  (JSON.stringify(value).match(/"cache_control"/g) ?? []).length;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
  const created = await postJson(
    `${stack.sim.url}/v1beta/cachedContents`,
    {
      model: "models/txtC-3.6-flash",
      contents: [{ role: "user", parts: [{ text: LONG }] }],
      ttl: "3600s",
    },
    { "x-goog-api-key": UPSTREAM_KEY },
  );
  explicitCache = created.json.name;
});
afterAll(() => stack?.close());

describe("rule 8: what every upstream receives of a client's cache_control", () => {
  it("every client format x every upstream protocol: none, except Anthropic's one breakpoint or a messages client's own", async () => {
    const checked: string[] = [];
    for (const [index, testCase] of CASES.entries()) {
      for (const protocol of Object.keys(MODELS) as Protocol[]) {
        if (testCase.only !== undefined && testCase.only !== protocol) continue;
        const label = `${testCase.client} (${testCase.shape}) -> ${protocol}`;
        const model = MODELS[protocol];
        const body = testCase.body(model, `case ${index} ${protocol}.`);
        const seen = stack.sim.requests.length;
        const headers = { ...auth(), "anthropic-version": "2023-06-01" };
        const res = await postJson(stack.gateway.url + testCase.path(model), body, headers);
        expect(res.status, `${label}: ${res.text}`).toBe(200);

        const received = stack.sim.requests.slice(seen);
        const generations = received.filter((r) => !r.path.endsWith("/cachedContents"));
        expect(generations, label).toHaveLength(1);
        const sent = generations[0]!.body;
        switch (testCase.expect(protocol)) {
          case "none":
            for (const request of received) expect(markers(request.body), label).toBe(0);
            break;
          case "one-breakpoint":
            expect(markers(sent), label).toBe(1);
            expect(JSON.stringify(sent), label).toContain(`"cache_control":{"type":"ephemeral"`);
            break;
          case "client-body":
            expect(sent, label).toEqual(body);
            break;
        }
        checked.push(label);
      }
    }
    // 4 client formats, every protocol (the explicit Gemini cache only toward Gemini).
    expect(new Set(checked.map((label) => label.split(" ")[0])).size).toBe(4);
    expect(checked).toHaveLength(CASES.length * 3 - 2);
  });

  it("a marker that is only removed shows up as a warning in the request log", async () => {
    const body = CASES[1]!.body(MODELS.openai, "warned");
    const res = await postJson(`${stack.gateway.url}/v1/chat/completions`, body);
    expect(res.status).toBe(200);
    const requestId = res.headers.get("x-request-id");
    const completed = () =>
      stack.logs().find((line) => line.msg === "request completed" && line.requestId === requestId);
    await eventually(() => completed() !== undefined);
    const done = completed() as { warnings: { type: string; feature: string; message: string }[] };
    expect(done.warnings).toContainEqual(
      expect.objectContaining({
        type: "dropped",
        feature: "cacheControl",
        message: expect.stringContaining("tools[0].cache_control"),
      }),
    );
  });
});
