import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createAdaptorServer } from "@hono/node-server";
import { keyRedactor } from "@interlingua/errors";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactOutbound } from "../src/http/redact-outbound.ts";
import type { UsageLogRow } from "../src/storage/store.ts";
import { relayResponse } from "../src/stream/direct-relay.ts";
import { eventuallyAsync, postJson, type Stack, startStack } from "./stack.ts";

// Issue 15, item 2: the channels' keys never leave the gateway, whatever their shape. The key
// is not shaped like `sk-…`, so the pattern redaction of upstream messages does not know it.
const CHANNEL_KEY = "k3-plain-Zq81xYt0";
const slices = (key: string) =>
  Array.from({ length: key.length - 7 }, (_, at) => key.slice(at, at + 8));

function expectNoKey(text: string): void {
  for (const slice of slices(CHANNEL_KEY)) expect(text).not.toContain(slice);
}

const chunk = (content: string) =>
  `data: ${JSON.stringify({
    id: "c1",
    object: "chat.completion.chunk",
    created: 1,
    model: "echo-1",
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;

/**
 * An OpenAI-protocol upstream that quotes the key it was sent: in a 400 error body, in a 200
 * reply's text, and in a stream's error frame cut in two across two TCP writes.
 */
async function startEchoUpstream(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const prompt = String(body.messages?.[0]?.content ?? "");
      if (prompt === "error" || prompt === "wrapped error") {
        // "wrapped error": the upstream wraps the key across two lines, 7 characters first.
        const quoted = prompt === "error" ? key : `${key.slice(0, 7)}\n${key.slice(7)}`;
        res.writeHead(400, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            error: {
              message: `Incorrect API key provided: ${quoted}`,
              type: "invalid_request_error",
            },
          }),
        );
        return;
      }
      if (!body.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "c1",
            object: "chat.completion",
            created: 1,
            model: "echo-1",
            choices: [
              {
                index: 0,
                message: { role: "assistant", content: `you sent ${key}` },
                finish_reason: "stop",
              },
            ],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("hello "));
      const frame = `data: ${JSON.stringify({
        error: { message: `invalid key ${key} rejected`, type: "invalid_request_error" },
      })}\n\n`;
      const cut = frame.indexOf(key) + 5;
      setTimeout(() => res.write(frame.slice(0, cut)), 30);
      setTimeout(() => res.end(frame.slice(cut)), 80);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("channel keys are redacted from everything that leaves the gateway", () => {
  let stack: Stack;
  let echo: Awaited<ReturnType<typeof startEchoUpstream>>;
  beforeAll(async () => {
    echo = await startEchoUpstream();
    stack = await startStack({
      extraChannels: () => [
        {
          name: "echo",
          protocol: "openai",
          base_url: echo.url,
          api_key: CHANNEL_KEY,
          models: ["echo-1"],
        },
      ],
    });
  });
  afterAll(async () => {
    await stack.close();
    echo.server.close();
  });
  const url = (path: string) => stack.gateway.url + path;
  const ask = (content: string, stream = false) =>
    postJson(url("/v1/chat/completions"), {
      model: "echo-1",
      stream,
      messages: [{ role: "user", content }],
    });

  async function usageRow(requestId: string | null): Promise<UsageLogRow> {
    const services = stack.gateway.services;
    const row = await eventuallyAsync(
      async () => {
        await services.accounting!.flush();
        const page = await services.store.queryLogs(
          { userId: "alice" },
          { offset: 0, limit: 1000 },
        );
        return page.items.find((r) => r.requestId === requestId);
      },
      (found) => found !== undefined,
    );
    return row!;
  }

  it("an upstream error message quoting the key: not in the body, the log or the usage row", async () => {
    const res = await ask("error");
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("Incorrect API key provided: [redacted]");
    expectNoKey(res.text);
    const row = await usageRow(res.headers.get("x-request-id"));
    expect(row.error).toContain("[redacted]");
    expectNoKey(row.error ?? "");
    expectNoKey(stack.logText());
  });

  it("an upstream error message wrapping the key across lines: no part of it", async () => {
    const res = await ask("wrapped error");
    expect(res.status).toBe(400);
    expect(res.json.error.message).toBe("Incorrect API key provided: [redacted]");
    expect(res.text).not.toContain(CHANNEL_KEY.slice(0, 7));
  });

  it("a reply's text quoting the key", async () => {
    const res = await ask("hi");
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.choices[0].message.content).toBe("you sent [redacted]");
  });

  it("a same-format stream's error frame, the key cut across two chunks", async () => {
    const res = await ask("hi", true);
    expect(res.status).toBe(200);
    // Proves the fast path ran: the upstream's own frame reached the client, redacted.
    expect(res.text).toContain('"message":"invalid key [redacted] rejected"');
    expect(res.text).toContain("hello ");
    expectNoKey(res.text);
    const row = await usageRow(res.headers.get("x-request-id"));
    expectNoKey(row.error ?? "");
    expectNoKey(stack.logText());
  });

  it("a thrown error's message and stack in a log line", async () => {
    const error = new Error(`connect failed for ${CHANNEL_KEY}`);
    stack.gateway.services.log.error({ err: error }, `unhandled: ${CHANNEL_KEY.slice(2, 12)}`);
    const last = stack.logs().at(-1)!;
    expect(last["msg"]).toBe("unhandled: [redacted]");
    expectNoKey(stack.logText());
  });
});

describe("redactOutbound", () => {
  const redactor = keyRedactor([CHANNEL_KEY]);
  let server: ReturnType<typeof createAdaptorServer>;
  let base = "";
  beforeAll(async () => {
    const app = new Hono();
    app.use("*", redactOutbound(redactor));
    app.get("/header", (c) => {
      c.header("x-upstream-note", `sent with ${CHANNEL_KEY}`);
      return c.json({ ok: true });
    });
    // A relay as a web-stream body (the front door writes direct ones, redacted by the same
    // filter: see the stack tests above), its header and its bytes in two writes.
    app.get("/relay", () =>
      relayResponse(
        (sink) => {
          sink.write(new TextEncoder().encode(`data: ${CHANNEL_KEY.slice(0, 6)}`));
          setTimeout(() => sink.end(new TextEncoder().encode(`${CHANNEL_KEY.slice(6)}\n\n`)), 20);
          return { resume: () => {}, detach: () => {} };
        },
        { status: 200, headers: { "content-type": "text/event-stream", "x-key": CHANNEL_KEY } },
        false,
      ),
    );
    app.get("/binary", (c) =>
      c.body(new TextEncoder().encode(CHANNEL_KEY), 200, {
        "content-type": "application/octet-stream",
      }),
    );
    server = createAdaptorServer({ fetch: app.fetch });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => void server.close());

  it("redacts response headers", async () => {
    const res = await fetch(`${base}/header`);
    expect(res.headers.get("x-upstream-note")).toBe("sent with [redacted]");
    expect(await res.json()).toEqual({ ok: true });
  });

  it("redacts a relay: its headers and a key split in two", async () => {
    const res = await fetch(`${base}/relay`);
    expect(res.headers.get("x-key")).toBe("[redacted]");
    expect(await res.text()).toBe("data: [redacted]\n\n");
  });

  it("leaves binary bodies as they are", async () => {
    const res = await fetch(`${base}/binary`);
    expect(await res.text()).toBe(CHANNEL_KEY);
  });
});
