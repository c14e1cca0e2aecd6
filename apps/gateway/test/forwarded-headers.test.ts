import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY, type Stack, startStack } from "./stack.ts";

// A client's Anthropic headers reach an Anthropic upstream: `anthropic-version` (or the neutral
// `vendor-version`) from any client format, `anthropic-beta` only from a messages client, whose
// protocol it belongs to. Without one, the messages protocol's default version is sent.

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

const BETA = "interleaved-thinking-2025-05-14";

/** One call toward the Anthropic-family model; the headers the simulator received. */
async function forwarded(path: string, body: unknown, headers: Record<string, string>) {
  const seen = stack.sim.requests.length;
  const res = await fetch(`${stack.gateway.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.text()).toBe(200);
  const call = stack.sim.requests.slice(seen).find((r) => r.path === "/v1/messages");
  if (call === undefined) throw new Error("no upstream messages call");
  return call.headers;
}

const MODEL = "txtB-sonnet-4-6";
const text = "[[len:3]] hi";
const CLIENTS = {
  messages: [
    "/v1/messages",
    { model: MODEL, max_tokens: 50, messages: [{ role: "user", content: text }] },
  ],
  chat: ["/v1/chat/completions", { model: MODEL, messages: [{ role: "user", content: text }] }],
  responses: ["/v1/responses", { model: MODEL, input: text, store: false }],
  native: [
    `/v1beta/models/${MODEL}:generateContent`,
    { contents: [{ role: "user", parts: [{ text }] }] },
  ],
} as const;

describe("client headers toward an Anthropic upstream", () => {
  it.each(Object.entries(CLIENTS))("from a %s client", async (format, [path, body]) => {
    const sent = await forwarded(path, body, {
      "anthropic-version": "2023-06-01",
      "anthropic-beta": BETA,
    });
    expect(sent["anthropic-version"]).toBe("2023-06-01");
    expect(sent["anthropic-beta"]).toBe(format === "messages" ? BETA : undefined);
  });

  it("the neutral vendor-version stands for anthropic-version", async () => {
    const [path, body] = CLIENTS.chat;
    const sent = await forwarded(path, body, { "vendor-version": "2099-01-01" });
    expect(sent["anthropic-version"]).toBe("2099-01-01");
  });

  it("without one, the protocol's default version", async () => {
    const [path, body] = CLIENTS.messages;
    const sent = await forwarded(path, body, {});
    expect(sent["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent["anthropic-beta"]).toBeUndefined();
  });
});
