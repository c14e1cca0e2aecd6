import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join, relative } from "node:path";
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Channel, toChannel } from "../routing/channel.ts";
import {
  ChannelHealth,
  ChannelSlots,
  CircuitBreaker,
  type RouteCandidate,
} from "../routing/model-router.ts";
import {
  type AttemptRecord,
  type ChannelAddress,
  type ChannelCall,
  type ChannelTrier,
  type ChannelTry,
  callChannel,
  channelDispatchOptions,
  ERROR_BODY_LIMIT,
  requestChannel,
  type SendOptions,
  sendUpstream,
  sendUpstreamText,
} from "./call-channel.ts";
import type { PreparedUpstreamRequest } from "./prepare-upstream-request.ts";
import { failureFromError, statusFailure } from "./upstream-failure.ts";

// Each channel is a base path on one local server; the path says how it answers. The tries
// below send for real (as audio does: the reply's body open, held by the slot until it closes).
const ROUTES: Record<string, (res: ServerResponse) => void> = {
  "/ok/call": (res) => res.writeHead(200, { "content-type": "text/plain" }).end("fine"),
  "/down/call": (res) => res.writeHead(503).end('{"error":{"message":"overloaded"}}'),
  "/bad/call": (res) => res.writeHead(400).end('{"error":{"message":"your mistake"}}'),
  // Answers only when the client goes away (never, on its own).
  "/slow/call": () => {},
  // Closes the connection without a word, as an upstream does to a keep-alive connection it let
  // go idle just as a call went out on it: the first time only, or every time.
  "/reset-once/call": (res) => {
    if (resets++ === 0) res.socket?.destroy();
    else res.writeHead(200, { "content-type": "text/plain" }).end("fine");
  },
  "/reset/call": (res) => res.socket?.destroy(),
  // A stream: a first chunk, then open until the client ends it.
  "/stream/call": (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: 1\n\n");
  },
};

let resets = 0;
let server: Server;
let base: string;
const agent = new Agent();
/** Authorization headers the server saw, by path (the channel's key is signed in). */
const seenKeys: Record<string, string | undefined> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    seenKeys[req.url ?? ""] = req.headers.authorization;
    req.resume();
    req.on("end", () => ROUTES[req.url ?? ""]!(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await agent.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const channel = (name: string, path: string, limits: Partial<Channel> = {}): RouteCandidate => ({
  channel: {
    ...toChannel({
      name,
      protocol: "openai",
      base_url: `${base}/${path}`,
      api_key: `key-${name}`,
      models: ["m"],
      priority: 0,
      weight: 1,
      caching: false,
      max_connections: 4,
      queue_timeout_ms: 1_000,
    } as Parameters<typeof toChannel>[0]),
    ...limits,
  },
  upstreamModel: "m",
});

/** One try as a caller would write it: send, an open 2xx body held, anything else a failure. */
const sending = (signal?: AbortSignal): ChannelTrier<Dispatcher.ResponseData["body"]> => ({
  async attempt(candidate, { traced }): Promise<ChannelTry<Dispatcher.ResponseData["body"]>> {
    return traced(async () => {
      let response: Dispatcher.ResponseData;
      try {
        response = await requestChannel(agent, candidate.channel, { path: "/call" }, signal);
      } catch (error) {
        return { kind: "failed", failure: failureFromError(error, true) };
      }
      if (response.statusCode < 300) {
        return { kind: "ok", value: response.body, held: response.body };
      }
      const text = await response.body.text();
      return {
        kind: "failed",
        failure: statusFailure(response.statusCode, response.headers, text),
      };
    });
  },
});

function setup(breakerOptions: { failureThreshold?: number } = {}) {
  const router = {
    slots: new ChannelSlots(),
    breaker: new CircuitBreaker({
      failureThreshold: breakerOptions.failureThreshold ?? 5,
      cooldownMs: 60_000,
      minSources: 1,
    }),
    health: new ChannelHealth(),
  };
  const call = (
    candidates: RouteCandidate[],
    signal?: AbortSignal,
  ): ChannelCall & { attempts: AttemptRecord[] } => ({
    router,
    candidates,
    attempts: [],
    signal,
    source: "token-1",
  });
  return { router, call };
}

const outcomes = (attempts: AttemptRecord[]) =>
  attempts.map((a) => [a.channel, a.outcome, a.status]);

describe("callChannel", () => {
  it("falls back to the next channel on a retryable failure, signing each with its key", async () => {
    const { router, call } = setup();
    const c = call([channel("down", "down"), channel("ok", "ok")]);
    const result = await callChannel(c, sending());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.candidate.channel.name).toBe("ok");
    expect(await result.value.text()).toBe("fine");
    expect(outcomes(c.attempts)).toEqual([
      ["down", "status", 503],
      ["ok", "ok", undefined],
    ]);
    expect(seenKeys["/down/call"]).toBe("Bearer key-down");
    expect(seenKeys["/ok/call"]).toBe("Bearer key-ok");
    expect(router.health.view("down")).toMatchObject({ calls: 1 });
    expect(router.health.view("ok")).toMatchObject({ calls: 1 });
  });

  it("sends once more, on a fresh connection, a call whose connection closed unanswered", async () => {
    const { router, call } = setup();
    resets = 0;
    const c = call([channel("flaky", "reset-once")]);
    const result = await callChannel(c, sending());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(await result.value.text()).toBe("fine");
    expect(outcomes(c.attempts)).toEqual([
      ["flaky", "connection", undefined],
      ["flaky", "ok", undefined],
    ]);
    // The first close says nothing of the channel's health: only the try that counted does.
    expect(router.health.view("flaky")).toMatchObject({ calls: 1, errors: 0 });
  });

  it("with another channel left, goes there instead; the last one is tried twice", async () => {
    const { call } = setup();
    const c = call([channel("closing", "reset"), channel("ok", "ok")]);
    expect((await callChannel(c, sending())).ok).toBe(true);
    expect(outcomes(c.attempts)).toEqual([
      ["closing", "connection", undefined],
      ["ok", "ok", undefined],
    ]);
    const alone = call([channel("closing", "reset")]);
    expect(await callChannel(alone, sending())).toMatchObject({
      ok: false,
      error: { status: 502 },
    });
    expect(outcomes(alone.attempts)).toEqual([
      ["closing", "connection", undefined],
      ["closing", "connection", undefined],
    ]);
  });

  it("does not fall back on the caller's 4xx: the upstream's error is final", async () => {
    const { call } = setup();
    const c = call([channel("bad", "bad"), channel("ok", "ok")]);
    const result = await callChannel(c, sending());
    expect(result).toMatchObject({ ok: false, clientGone: false, error: { status: 400 } });
    expect(outcomes(c.attempts)).toEqual([["bad", "status", 400]]);
  });

  it("skips a channel whose circuit is open", async () => {
    const { router, call } = setup({ failureThreshold: 1 });
    const first = await callChannel(call([channel("down", "down")]), sending());
    expect(first).toMatchObject({ ok: false, error: { status: 503 } });
    expect(router.breaker.phase("down\u0000m")).toBe("open");
    const c = call([channel("down", "down"), channel("ok", "ok")]);
    const result = await callChannel(c, sending());
    expect(result.ok).toBe(true);
    if (result.ok) await result.value.dump();
    expect(outcomes(c.attempts)).toEqual([
      ["down", "skipped-open-circuit", undefined],
      ["ok", "ok", undefined],
    ]);
  });

  it("gives a full channel up after its queue time, and answers 503 when all are full", async () => {
    const { router, call } = setup();
    const busy = channel("busy", "ok", { maxConnections: 1, queueTimeoutMs: 50 });
    const taken = await router.slots.acquire(busy.channel);
    expect(taken.ok).toBe(true);
    const c = call([busy, channel("ok", "ok")]);
    const result = await callChannel(c, sending());
    expect(result.ok).toBe(true);
    if (result.ok) await result.value.dump();
    expect(outcomes(c.attempts)).toEqual([
      ["busy", "queue-timeout", undefined],
      ["ok", "ok", undefined],
    ]);
    const alone = call([busy]);
    const refused = await callChannel(alone, sending());
    expect(refused).toMatchObject({
      ok: false,
      clientGone: false,
      error: { status: 503, retryAfterSeconds: 1 },
    });
    if (!refused.ok) expect(refused.error.message).toMatch(/in use \(waited 50 ms\)/);
    if (taken.ok) taken.release();
  });

  it("ends as client-gone when the client leaves mid-call, trying no other channel", async () => {
    const { router, call } = setup();
    const client = new AbortController();
    const c = call([channel("slow", "slow"), channel("ok", "ok")], client.signal);
    setTimeout(() => client.abort(), 50);
    const result = await callChannel(c, sending(client.signal));
    expect(result).toMatchObject({ ok: false, clientGone: true, error: { status: 499 } });
    expect(outcomes(c.attempts)).toEqual([["slow", "client-gone", undefined]]);
    // No fault of the channel's: its circuit and health are untouched, its slot is back.
    expect(router.breaker.phase("slow\u0000m")).toBe("closed");
    expect(router.slots.inUse().get("slow")).toBe(0);
  });

  it("holds the slot of a committed stream until its body closes", async () => {
    const { router, call } = setup();
    const stream = channel("stream", "stream", { maxConnections: 1, queueTimeoutMs: 50 });
    const result = await callChannel(call([stream]), sending());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(router.slots.inUse().get("stream")).toBe(1);
    // A second call finds the one connection taken.
    const second = await callChannel(call([stream]), sending());
    expect(second).toMatchObject({ ok: false, error: { status: 503 } });
    const closed = new Promise((resolve) => result.value.once("close", resolve));
    result.value.on("error", () => {});
    result.value.destroy();
    await closed;
    expect(router.slots.inUse().get("stream")).toBe(0);
  });

  it("gives the slot back when a try throws", async () => {
    const { router, call } = setup();
    const ok = channel("ok", "ok");
    const throwing: ChannelTrier<never> = {
      attempt: () => Promise.reject(new Error("render bug")),
    };
    await expect(callChannel(call([ok]), throwing)).rejects.toThrow("render bug");
    expect(router.slots.inUse().get("ok")).toBe(0);
  });
});

const SRC = join(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const gemini: ChannelAddress = {
  origin: "https://g.example",
  basePath: "/proxy",
  protocol: "gemini",
  apiKey: "gk",
};

describe("channelDispatchOptions", () => {
  it("puts the path under the base path and signs with the protocol's key header", () => {
    const options = channelDispatchOptions(gemini, {
      path: "/v1beta/cachedContents",
      headers: { "content-type": "application/json" },
      body: "{}",
      headersTimeoutMs: 10,
    });
    expect(options).toMatchObject({
      origin: "https://g.example",
      path: "/proxy/v1beta/cachedContents",
      method: "POST",
      body: "{}",
      headersTimeout: 10,
      headers: { "content-type": "application/json", "x-goog-api-key": "gk" },
    });
    expect(options).not.toHaveProperty("bodyTimeout");
  });

  it("takes a path from the origin as it is (a URL the channel handed back)", () => {
    const options = channelDispatchOptions(gemini, {
      method: "GET",
      path: "/v1beta/files/a:download?alt=media",
      fromOrigin: true,
    });
    expect(options).toMatchObject({ path: "/v1beta/files/a:download?alt=media", method: "GET" });
  });

  it("passes the client's forwarded headers to the protocol", () => {
    const anthropic: ChannelAddress = { ...gemini, protocol: "anthropic", apiKey: "ak" };
    const options = channelDispatchOptions(anthropic, {
      path: "/v1/messages",
      forwarded: { "anthropic-beta": "b1" },
    });
    expect(options.headers).toMatchObject({ "x-api-key": "ak", "anthropic-beta": "b1" });
  });
});

describe("one sender to channels", () => {
  it("no other module signs a request with a channel's key or sends on the upstream agent", () => {
    const offenders = sources(SRC)
      .filter((file) => !file.endsWith("upstream/call-channel.ts"))
      .filter((file) =>
        /\.headers\(\s*(channel|config)?\.?api_?[kK]ey|\bagent\.(request|dispatch)\(/.test(
          readFileSync(file, "utf8"),
        ),
      )
      .map((file) => relative(SRC, file));
    expect(offenders).toEqual([]);
  });
});

// The whole-body sender against the streaming one, on a server of its own.
describe("sendUpstream and sendUpstreamText", () => {
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
});
