import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { PreparedUpstreamRequest } from "./prepare-upstream-request.ts";
import { ERROR_BODY_LIMIT, type SendOptions, sendUpstream } from "./send-upstream.ts";
import { sendUpstreamText } from "./send-upstream-text.ts";
import { failureFromError } from "./upstream-failure.ts";

// Each path answers one way; the same request through `sendUpstream` plus undici's `text()` (the
// reference) and through `sendUpstreamText` must come back equal.
const ROUTES: Record<string, (res: import("node:http").ServerResponse) => void> = {
  "/ok": (res) => res.writeHead(200, { "content-type": "application/json" }).end('{"a":"é"}'),
  "/bom": (res) => res.writeHead(200).end(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d])),
  "/chunked": (res) => {
    res.writeHead(200);
    res.write('{"a":');
    setTimeout(() => res.end("1}"), 5);
  },
  "/empty": (res) => res.writeHead(204).end(),
  "/error": (res) =>
    res.writeHead(429, { "retry-after": "7" }).end('{"error":{"message":"slow down"}}'),
  "/html": (res) => res.writeHead(502).end("<html>bad gateway</html>"),
  "/huge-error": (res) => res.writeHead(500).end("x".repeat(ERROR_BODY_LIMIT * 3)),
  // A 2xx body far past the test's limit: 64 KiB chunks until 32 MiB, or until the reader gives
  // up (the socket closes).
  "/endless": (res) => {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (!res.destroyed && sent < 32 << 20) {
        sent += chunk.length;
        if (!res.write(chunk)) return;
      }
      if (!res.destroyed) res.end();
    };
    res.on("drain", pump);
    res.on("close", () => {
      endlessClosed = true;
    });
    pump();
  },
  // Past undici's coarse timer (its timeouts fire up to about a second late).
  "/slow": (res) => setTimeout(() => res.writeHead(200).end("{}"), 2500),
  "/reset": (res) => {
    res.writeHead(200, { "content-length": "100" });
    res.write('{"a":');
    setTimeout(() => res.socket?.destroy(), 5);
  },
};

let sent = 0;
let endlessClosed = false;
let server: Server;
let origin: string;
const agent = new Agent();

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => ROUTES[req.url ?? ""]!(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const prepared = (path: string, at = origin): PreparedUpstreamRequest => ({
  channel: { origin: at, basePath: "", protocol: "openai", apiKey: "k" },
  path,
  headers: { "content-type": "application/json" },
  forwarded: {},
  body: "{}",
  sameFormat: true,
  injectedUsage: false,
});

async function reference(path: string, options: SendOptions = {}) {
  const reply = await sendUpstream(agent, prepared(path), options);
  if (!reply.ok) return reply;
  try {
    return { ok: true, status: reply.status, text: await reply.body.text() };
  } catch (error) {
    return { ok: false, failure: failureFromError(error) };
  }
}

describe("sendUpstreamText", () => {
  it.each(Object.keys(ROUTES).filter((path) => path !== "/slow" && path !== "/endless"))(
    "%s as the reference",
    async (path) => {
      expect(await sendUpstreamText(agent, prepared(path))).toEqual(await reference(path));
    },
  );

  it("times out waiting for headers as the reference does", async () => {
    const options = { headersTimeoutMs: 100 };
    const text = await sendUpstreamText(agent, prepared("/slow"), options);
    expect(text).toEqual(await reference("/slow", options));
    expect(text).toMatchObject({ ok: false, failure: { kind: "timeout" } });
  });

  it("is cancelled by its signal, before the call and during it", async () => {
    const before = new AbortController();
    before.abort("gone");
    expect(await sendUpstreamText(agent, prepared("/ok"), { signal: before.signal })).toEqual({
      ok: false,
      failure: { kind: "connection", message: "gone" },
    });
    const during = new AbortController();
    setTimeout(() => during.abort("left"), 50);
    expect(await sendUpstreamText(agent, prepared("/slow"), { signal: during.signal })).toEqual({
      ok: false,
      failure: { kind: "connection", message: "left" },
    });
  });

  it("gives up a 2xx body past maxReplyBytes: a malformed reply, the call aborted", async () => {
    const text = await sendUpstreamText(agent, prepared("/endless"), { maxReplyBytes: 1 << 20 });
    expect(text).toEqual({
      ok: false,
      failure: { kind: "malformed", message: "upstream reply larger than 1048576 bytes" },
    });
    await vi.waitFor(() => expect(endlessClosed).toBe(true));
    // Socket buffers aside, reading stopped at the limit.
    expect(sent).toBeLessThan(16 << 20);
  });

  it("fails a connection that is refused", async () => {
    const closed = prepared("/ok", "http://127.0.0.1:1");
    const text = await sendUpstreamText(agent, closed);
    expect(text).toMatchObject({ ok: false, failure: { kind: "connection" } });
  });
});
