import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, type Dispatcher } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Channel, toChannel } from "../routing/channel.ts";
import { ChannelHealth } from "../routing/channel-health.ts";
import { ChannelSlots } from "../routing/channel-slots.ts";
import { CircuitBreaker } from "../routing/circuit-breaker.ts";
import type { RouteCandidate } from "../routing/model-router.ts";
import type { AttemptRecord } from "./attempt-record.ts";
import {
  type ChannelCall,
  type ChannelTrier,
  type ChannelTry,
  callChannel,
} from "./call-channel.ts";
import { requestChannel } from "./channel-request.ts";
import { failureFromError, statusFailure } from "./upstream-failure.ts";

// Each channel is a base path on one local server; the path says how it answers. The tries
// below send for real (as audio does: the reply's body open, held by the slot until it closes).
const ROUTES: Record<string, (res: ServerResponse) => void> = {
  "/ok/call": (res) => res.writeHead(200, { "content-type": "text/plain" }).end("fine"),
  "/down/call": (res) => res.writeHead(503).end('{"error":{"message":"overloaded"}}'),
  "/bad/call": (res) => res.writeHead(400).end('{"error":{"message":"your mistake"}}'),
  // Answers only when the client goes away (never, on its own).
  "/slow/call": () => {},
  // A stream: a first chunk, then open until the client ends it.
  "/stream/call": (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: 1\n\n");
  },
};

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
        return { kind: "failed", failure: failureFromError(error) };
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
