import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_DRAIN } from "../src/start-gateway.ts";
import type { UsageLogRow } from "../src/storage/store.ts";
import {
  auth,
  eventually,
  eventuallyAsync,
  postJson,
  type Stack,
  startStack,
  tokenRow,
  UPSTREAM_KEY,
} from "./stack.ts";
import { loggedRowOf } from "./usage-rows.ts";
import { parseSse, READ_STREAM, REQUEST } from "./wire.ts";

// Issue 15, item 4: a client that leaves cancels its upstream call within a second (stream or
// not, hung or dripping), its hold is released, and it is charged the prompt plus what was
// delivered (an estimate, flagged, when the upstream reported no usage). Channels bound the time
// to the first byte and between chunks. Hundreds of abandoned calls leave the pool usable.

const KEY = "sk-leaver";
// txtA-5: input 0.625 and output 5 credits per token.
const credits = (prompt: number, completion: number) => Math.ceil(prompt * 0.625 + completion * 5);

let stack: Stack;
const url = (path: string) => stack.gateway.url + path;

/** Upstream requests the gateway's pool still has under way at the simulator. */
const running = () => {
  const stats = stack.gateway.services.agent.stats as Record<string, { running: number }>;
  return stats[new URL(stack.sim.url).origin]?.running ?? 0;
};

const rowOf = (requestId: string | null): Promise<UsageLogRow> => loggedRowOf(stack, requestId);

/**
 * Starts a request, leaves after `leaveAfterMs` (or after the first chunk when `readFirst`), and
 * returns the request id and the time the client left.
 */
async function leave(
  path: string,
  body: unknown,
  o: { leaveAfterMs?: number; readFirst?: boolean; key?: string } = {},
): Promise<{ requestId: string | null; leftAt: number }> {
  const controller = new AbortController();
  let requestId: string | null = null;
  const started = fetch(url(path), {
    method: "POST",
    headers: { ...auth(o.key ?? KEY), "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: controller.signal,
  }).then(async (res) => {
    requestId = res.headers.get("x-request-id");
    if (o.readFirst === true) await res.body!.getReader().read();
  });
  if (o.readFirst === true) await started;
  else await new Promise((r) => setTimeout(r, o.leaveAfterMs ?? 150));
  controller.abort();
  await started.catch(() => {});
  return { requestId, leftAt: performance.now() };
}

/** The token's row once every settlement so far is written. */
async function settled(key = KEY) {
  await stack.gateway.services.accounting!.flush();
  return tokenRow(stack, key);
}

/** Waits until the pool has nothing running at the simulator; returns how long that took. */
async function cancelledWithin(leftAt: number): Promise<number> {
  await eventually(() => running() === 0);
  return performance.now() - leftAt;
}

// The gateway cancels within a second on an idle machine; the upstreams here would run for 30 s
// or for ever, so these bounds still tell a cancel from a run-out while leaving a loaded CI
// machine room to schedule.
const CANCELLED_MS = 5_000;
// 200 at once: the slowest of them (100 chunks 200 ms apart) would run 20 s.
const MANY_CANCELLED_MS = 15_000;
// A pool still held by calls whose upstream never answers would never free: anything short of
// the client's own 45 s timeout tells that apart, however loaded the machine.
const POOL_FREED_MS = 40_000;

/** The request id the gateway logged for the last request that ended with `status`. */
const lastIdWithStatus = (status: number) =>
  stack
    .logs()
    .filter((l) => l["status"] === status)
    .map((l) => l["requestId"] as string)
    .at(-1) ?? null;

// An upstream that answers its headers at once and then never a byte of body.
let mute: Server;
let muteUrl: string;

beforeAll(async () => {
  mute = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const stream = req.headers.accept?.includes("event-stream") === true;
      res.writeHead(200, { "content-type": stream ? "text/event-stream" : "application/json" });
      res.flushHeaders();
    });
  });
  await new Promise<void>((resolve) => mute.listen(0, "127.0.0.1", resolve));
  muteUrl = `http://127.0.0.1:${(mute.address() as AddressInfo).port}`;
  stack = await startStack(
    {
      users: [{ id: "alice", quota: 1_000_000_000 }],
      tokens: [
        { key: KEY, user: "alice", quota: 500_000_000, name: "leaver" },
        { key: "sk-test-alice", user: "alice", unlimited: true },
      ],
      extraChannels: (simUrl) => [
        {
          name: "tight",
          protocol: "openai",
          base_url: simUrl,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3.2-exp"],
          timeout: { first_byte_ms: 300, idle_ms: 300 },
        },
        {
          name: "mute",
          protocol: "openai",
          base_url: muteUrl,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3-0324"],
          timeout: { first_byte_ms: 300, idle_ms: 300 },
        },
        {
          name: "after-mute",
          protocol: "openai",
          base_url: simUrl,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3-0324"],
          priority: 1,
        },
        {
          name: "tight-an",
          protocol: "anthropic",
          base_url: simUrl,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v4-pro"],
          timeout: { first_byte_ms: 300, idle_ms: 300 },
        },
      ],
    },
    {
      // Long enough that only a cancel, never a timeout, frees a hung call in these tests.
      timeouts: { headersMs: 20_000, bodyMs: 20_000, connectMs: 1000 },
      drain: DEFAULT_DRAIN,
      breaker: { failureThreshold: 10_000, cooldownMs: 1000 },
    },
  );
});
afterAll(async () => {
  await stack.close();
  mute.closeAllConnections();
  await new Promise((resolve) => mute.close(resolve));
});

describe("a client that leaves cancels its upstream call within a second", () => {
  it("non-stream, hung upstream: cancelled, hold released, the prompt charged as an estimate", async () => {
    const before = await settled();
    const prompt = "[[fault:hang]] wait for me";
    const { leftAt } = await leave(
      "/v1/chat/completions",
      { model: "txtA-5", messages: [{ role: "user", content: prompt }] },
      { leaveAfterMs: 200 },
    );
    expect(await cancelledWithin(leftAt)).toBeLessThan(CANCELLED_MS);
    await eventually(() => lastIdWithStatus(499) !== null);
    const row = await rowOf(lastIdWithStatus(499));
    expect(row).toMatchObject({ status: 499, estimated: true, completionTokens: 0 });
    expect(row.promptTokens).toBeGreaterThan(0);
    expect(row.credits).toBe(credits(row.promptTokens, 0));
    // The sim sees the cancel before the gateway has refunded the hold: wait for the refund.
    const after = await eventuallyAsync(settled, (row) => row.reserved === 0);
    expect(after.used - before.used).toBe(row.credits);
    expect(after.reserved).toBe(0);
  });

  it("stream, hung before its first byte (each format): cancelled the same way", async () => {
    for (const request of [
      REQUEST.chat({ model: "txtA-5", text: "[[fault:hang]] a", stream: true }),
      REQUEST.messages({ model: "txtB-sonnet-4-6", text: "[[fault:hang]] b", stream: true }),
      REQUEST.native({ model: "txtC-2.5-pro", text: "[[fault:hang]] c", stream: true }),
      REQUEST.responses({ model: "txtA-5", text: "[[fault:hang]] d", stream: true }),
    ]) {
      const { leftAt } = await leave(request.path, request.body, { leaveAfterMs: 150 });
      expect(await cancelledWithin(leftAt), request.path).toBeLessThan(CANCELLED_MS);
    }
    // Every hold is refunded (the sim sees each cancel a moment before the gateway refunds).
    await eventuallyAsync(settled, (row) => row.reserved === 0);
  });

  it("stream, dripping upstream: cancelled after the first chunk, charged prompt plus delivered", async () => {
    const before = await settled();
    const prompt = "[[fault:chunk-delay=100]] [[len:300]] drip";
    const { requestId, leftAt } = await leave(
      "/v1/chat/completions",
      { model: "txtA-5", messages: [{ role: "user", content: prompt }], stream: true },
      { readFirst: true },
    );
    expect(await cancelledWithin(leftAt)).toBeLessThan(CANCELLED_MS);
    const row = await rowOf(requestId);
    expect(row.estimated).toBe(true);
    expect(row.promptTokens).toBeGreaterThan(0);
    // A few words went by before the cancel, far from the 300 asked for.
    expect(row.completionTokens).toBeGreaterThan(0);
    expect(row.completionTokens).toBeLessThan(60);
    expect(row.credits).toBe(credits(row.promptTokens, row.completionTokens));
    // The sim sees the cancel before the gateway has refunded the hold: wait for the refund.
    const after = await eventuallyAsync(settled, (row) => row.reserved === 0);
    expect(after.used - before.used).toBe(row.credits);
    expect(after.reserved).toBe(0);
    const line = stack.logs().find((l) => l["requestId"] === requestId && l["clientDisconnected"]);
    expect(line).toMatchObject({ complete: false, clientDisconnected: true });
  });

  it("200 abandoned calls leave the pool usable: normal requests then succeed promptly", async () => {
    const leavers = Array.from({ length: 200 }, (_, i) => {
      const stream = i % 2 === 0;
      const text =
        i % 3 === 0 ? `[[fault:chunk-delay=200]] [[len:100]] ${i}` : `[[fault:hang]] ${i}`;
      const { path, body } = REQUEST.chat({ model: "txtA-5", text, stream });
      return leave(path, body, { leaveAfterMs: 300, key: "sk-test-alice" });
    });
    const left = await Promise.all(leavers);
    const lastLeft = Math.max(...left.map((l) => l.leftAt));
    expect(await cancelledWithin(lastLeft)).toBeLessThan(MANY_CANCELLED_MS);
    const started = performance.now();
    const normal = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postJson(
          url("/v1/chat/completions"),
          REQUEST.chat({ model: "txtA-5", text: `ok ${i}`, stream: false }).body,
        ),
      ),
    );
    expect(normal.map((r) => r.status)).toEqual(Array(20).fill(200));
    // A pool still held by the hung calls would wait for ever (their upstream never answers).
    expect(performance.now() - started).toBeLessThan(POOL_FREED_MS);
    // Every hold is refunded (the sim sees each cancel a moment before the gateway refunds).
    await eventuallyAsync(settled, (row) => row.reserved === 0);
  });
});

describe("per-channel timeouts (channels[].timeout)", () => {
  it("no first byte in time: 502 in each endpoint's envelope before anything was sent", async () => {
    const started = performance.now();
    const chat = await postJson(
      url("/v1/chat/completions"),
      REQUEST.chat({ model: "txtD-v3.2-exp", text: "[[fault:latency=20000]] slow", stream: false })
        .body,
    );
    expect(chat.status).toBe(502);
    expect(chat.json.error).toMatchObject({ code: 502, type: "bad_gateway" });
    // Bounded by the channel's 300 ms (undici's timers tick coarsely, and CI is loaded), not by
    // the simulator's 20 s.
    expect(performance.now() - started).toBeLessThan(10_000);
    const second = performance.now();
    const messages = await postJson(
      url("/v1/messages"),
      REQUEST.messages({ model: "txtD-v4-pro", text: "[[fault:latency=20000]] slow", stream: true })
        .body,
    );
    expect(messages.status).toBe(502);
    expect(messages.json).toMatchObject({ type: "error", error: { type: "api_error" } });
    expect(performance.now() - second).toBeLessThan(10_000);
  });

  it("headers, then silence past first_byte_ms: the next channel answers, the gateway lives", async () => {
    for (const stream of [false, true]) {
      const started = performance.now();
      const { path, body } = REQUEST.chat({ model: "txtD-v3-0324", text: "mute", stream });
      const res = await postJson(url(path), body);
      expect(res.status, `stream: ${stream}`).toBe(200);
      expect(res.text).toContain("echo: mute");
      expect(performance.now() - started).toBeLessThan(10_000);
    }
    // Still serving (a destroyed body's abort error once went unhandled and ended the process).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await postJson(url("/v1/chat/completions"), {
      model: "txtA-5",
      messages: [{ role: "user", content: "still here" }],
    });
    expect(after.status).toBe(200);
  });

  it("silence between chunks past idle_ms: the stream ends with an error event", async () => {
    const { path, body } = REQUEST.chat({
      model: "txtD-v3.2-exp",
      text: "[[fault:chunk-delay=20000]] [[len:30]] idle",
      stream: true,
    });
    const started = performance.now();
    const res = await postJson(url(path), body);
    expect(res.status).toBe(200);
    const frames = parseSse(res.text).filter((f) => f.data !== "[DONE]");
    expect(JSON.parse(frames.at(-1)!.data).error).toMatchObject({ type: "bad_gateway" });
    // Cut after idle_ms (300 ms) of silence, long before the simulator's 20 s gap.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("a channel without timeouts still answers a normal stream", async () => {
    const { path, body } = REQUEST.chat({ model: "txtA-5", text: "fine", stream: true });
    const res = await postJson(url(path), body);
    expect(READ_STREAM.chat(parseSse(res.text)).text).toBe("echo: fine");
  });
});
