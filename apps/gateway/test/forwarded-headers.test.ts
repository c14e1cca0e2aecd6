import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, postJson, type Stack, startStack } from "./stack.ts";
import { type ClientFormat, REQUEST } from "./wire.ts";

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

const FORMATS: ClientFormat[] = ["messages", "chat", "responses", "native"];

/** One call from a `format` client toward the Anthropic-family model; the headers it sent on. */
async function forwarded(format: ClientFormat, headers: Record<string, string>) {
  const { path, body } = REQUEST[format]({
    model: "txtB-sonnet-4-6",
    text: "[[len:3]] hi",
    stream: false,
  });
  const seen = stack.sim.requests.length;
  const reply = await postJson(`${stack.gateway.url}${path}`, body, { ...auth(), ...headers });
  expect(reply.status, reply.text).toBe(200);
  const call = stack.sim.requests.slice(seen).find((r) => r.path === "/v1/messages");
  if (call === undefined) throw new Error("no upstream messages call");
  return call.headers;
}

describe("client headers toward an Anthropic upstream", () => {
  it.each(FORMATS)("from a %s client", async (format) => {
    const sent = await forwarded(format, {
      "anthropic-version": "2023-06-01",
      "anthropic-beta": BETA,
    });
    expect(sent["anthropic-version"]).toBe("2023-06-01");
    expect(sent["anthropic-beta"]).toBe(format === "messages" ? BETA : undefined);
  });

  it("the neutral vendor-version stands for anthropic-version", async () => {
    const sent = await forwarded("chat", { "vendor-version": "2099-01-01" });
    expect(sent["anthropic-version"]).toBe("2099-01-01");
  });

  it("without one, the protocol's default version", async () => {
    const sent = await forwarded("messages", {});
    expect(sent["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent["anthropic-beta"]).toBeUndefined();
  });
});
