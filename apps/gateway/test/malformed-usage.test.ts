import { describe, expect, it } from "vitest";
import { SCRIPTED_MODEL, type UpstreamProtocol, useScriptedStack } from "./scripted-upstream.ts";
import { auth, postJson } from "./stack.ts";
import { loggedRowOf } from "./usage-rows.ts";
import type { Json } from "./wire.ts";

const scripted = useScriptedStack();

const TEXT = "Hello there, usage aside";

/** Each family's usage object, with `n` for each count. */
const USAGE: Record<UpstreamProtocol, (n: unknown) => Json> = {
  openai: (n) => ({ prompt_tokens: n, completion_tokens: n, total_tokens: n }),
  "openai-responses": (n) => ({ input_tokens: n, output_tokens: n, total_tokens: n }),
  anthropic: (n) => ({ input_tokens: n, output_tokens: n }),
  gemini: (n) => ({ promptTokenCount: n, candidatesTokenCount: n, totalTokenCount: n }),
};

/** A whole reply of each family carrying `usage` (left out when undefined). */
const REPLY: Record<UpstreamProtocol, (usage: Json | undefined) => Json> = {
  openai: (usage) => ({
    id: "c1",
    object: "chat.completion",
    created: 1,
    model: "gpt-5",
    choices: [{ index: 0, message: { role: "assistant", content: TEXT }, finish_reason: "stop" }],
    ...(usage === undefined ? {} : { usage }),
  }),
  "openai-responses": (usage) => ({
    id: "resp_1",
    object: "response",
    created_at: 1,
    status: "completed",
    model: "gpt-5.2-pro",
    output: [
      {
        type: "message",
        id: "msg_1",
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: TEXT, annotations: [] }],
      },
    ],
    ...(usage === undefined ? {} : { usage }),
  }),
  anthropic: (usage) => ({
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-sonnet-4-6",
    content: [{ type: "text", text: TEXT }],
    stop_reason: "end_turn",
    stop_sequence: null,
    ...(usage === undefined ? {} : { usage }),
  }),
  gemini: (usage) => ({
    candidates: [
      { content: { role: "model", parts: [{ text: TEXT }] }, finishReason: "STOP", index: 0 },
    ],
    modelVersion: "gemini-2.5-pro",
    ...(usage === undefined ? {} : { usageMetadata: usage }),
  }),
};

const MALFORMED: [string, (protocol: UpstreamProtocol) => Json | undefined][] = [
  ["negative", (p) => USAGE[p](-3)],
  ["fractional", (p) => USAGE[p](2.5)],
  ["strings", (p) => USAGE[p]("12")],
  ["missing", () => undefined],
  ["null", () => null],
];

/** The same question in a format other than the upstream's, so the reply is translated. */
const ask = (protocol: UpstreamProtocol) =>
  protocol === "openai"
    ? postJson(
        `${scripted.stack.gateway.url}/v1/messages`,
        {
          model: SCRIPTED_MODEL[protocol],
          max_tokens: 64,
          messages: [{ role: "user", content: "hi" }],
        },
        auth(),
      )
    : postJson(
        `${scripted.stack.gateway.url}/v1/chat/completions`,
        { model: SCRIPTED_MODEL[protocol], messages: [{ role: "user", content: "hi" }] },
        auth(),
      );

const answerText = (protocol: UpstreamProtocol, json: Json): unknown =>
  protocol === "openai" ? json.content?.[0]?.text : json.data?.choices?.[0]?.message?.content;

// A translated non-stream reply whose usage is not token counts is delivered, charged an
// estimate and warned, as a stream's is; never a 502 for its usage alone.
describe("a translated reply with malformed usage is delivered and estimated", () => {
  for (const protocol of Object.keys(REPLY) as UpstreamProtocol[]) {
    for (const [name, usage] of MALFORMED) {
      it(`${protocol} upstream, usage ${name}`, async () => {
        scripted.upstream.script(() => ({
          body: JSON.stringify(REPLY[protocol](usage(protocol))),
        }));
        const res = await ask(protocol);
        expect(res.status, res.text).toBe(200);
        expect(answerText(protocol, res.json)).toBe(TEXT);
        expect(res.headers.get("x-interlingua-warnings") ?? "").toContain("usage=dropped");
        const row = await loggedRowOf(scripted.stack, res.headers.get("x-request-id"));
        expect(row).toMatchObject({ status: 200, estimated: true });
        // The estimate counts the delivered answer, never a free call.
        expect(row.completionTokens).toBeGreaterThan(0);
        expect(row.credits).toBeGreaterThan(0);
      });
    }
  }

  it("a well-formed usage is charged as reported, without a warning", async () => {
    scripted.upstream.script(() => ({ body: JSON.stringify(REPLY.anthropic(USAGE.anthropic(7))) }));
    const res = await ask("anthropic");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-interlingua-warnings") ?? "").not.toContain("usage=");
    const row = await loggedRowOf(scripted.stack, res.headers.get("x-request-id"));
    expect(row).toMatchObject({ completionTokens: 7 });
    expect(row.estimated ?? false).toBe(false);
  });
});
