import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLY_BODY_LIMIT } from "../src/upstream/call-channel.ts";
import { postJson, type Stack, startStack, UPSTREAM_KEY } from "./stack.ts";
import { parseSse } from "./wire.ts";

// An upstream that never stops one reply must not take the gateway's memory: a whole reply is
// read up to REPLY_BODY_LIMIT, one stream frame up to as many characters; past either the call
// is given up and the client answered (502, or an error event ending its stream).

const MIB = 1024 * 1024;
/** What the upstream sends at most: past both limits, so a gateway without them reads it all. */
const SENT_LIMIT = REPLY_BODY_LIMIT + 16 * MIB;

let sent = 0;

/**
 * An OpenAI-protocol upstream whose every reply is one endless string: a chat completion's
 * content (non-stream) or one `data:` line that never ends (stream), 1 MiB at a time.
 */
async function startFloodingUpstream(): Promise<{ url: string; server: Server }> {
  const piece = Buffer.alloc(MIB, 0x61);
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      const stream = body.stream === true;
      res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
      const head = stream
        ? 'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"'
        : '{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"';
      res.write(head);
      let written = 0;
      const pump = () => {
        while (!res.destroyed && written < SENT_LIMIT) {
          written += piece.length;
          sent += piece.length;
          if (!res.write(piece)) return;
        }
        if (!res.destroyed) res.end('"}}]}');
      };
      res.on("drain", pump);
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("an upstream reply past the limits", () => {
  let stack: Stack;
  let upstream: Awaited<ReturnType<typeof startFloodingUpstream>>;
  beforeAll(async () => {
    upstream = await startFloodingUpstream();
    stack = await startStack({
      channels: [
        {
          name: "flood",
          protocol: "openai",
          base_url: upstream.url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3.2"],
        },
      ],
    });
  });
  afterAll(async () => {
    await stack?.close();
    upstream.server.closeAllConnections();
    await new Promise((resolve) => upstream.server.close(resolve));
  });

  const ask = { model: "txtD-v3.2", max_tokens: 16, messages: [{ role: "user", content: "hi" }] };

  it("a whole reply: read up to its limit, then a 502", async () => {
    sent = 0;
    const reply = await postJson(`${stack.gateway.url}/v1/chat/completions`, ask);
    expect(reply.status).toBe(502);
    expect(reply.json.error.type).toBe("bad_gateway");
    expect(sent).toBeLessThan(SENT_LIMIT);
  }, 60_000);

  it("one endless frame, same format: the stream ends with an error event", async () => {
    sent = 0;
    const reply = await postJson(`${stack.gateway.url}/v1/chat/completions`, {
      ...ask,
      stream: true,
    });
    expect(reply.status).toBe(200);
    const frames = parseSse(reply.text);
    const error = frames.find((f) => f.data.includes('"error"'));
    expect(error?.data).toContain("an SSE frame is longer than");
    expect(reply.text.length).toBeLessThan(MIB);
    expect(sent).toBeLessThan(SENT_LIMIT);
  }, 60_000);

  it("one endless frame, across formats: the stream ends with an error event", async () => {
    sent = 0;
    const reply = await postJson(`${stack.gateway.url}/v1/messages`, { ...ask, stream: true });
    expect(reply.status).toBe(200);
    const error = parseSse(reply.text).find((f) => f.event === "error");
    expect(error?.data).toContain("max buffer size");
    expect(sent).toBeLessThan(SENT_LIMIT);
  }, 60_000);
});
