import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auth,
  eventuallyAsync,
  KEY,
  postJson,
  type Stack,
  startStack,
  UPSTREAM_KEY,
} from "./stack.ts";

// A channel's max_connections: a call past it waits in line for at most queue_timeout_ms, then
// takes the next channel, or gets 503 with Retry-After when there is none. A stream holds its
// connection until it ends or its client leaves. (Before, one agent capped every origin at 512
// connections and call 513 waited for a stream to end, with no headers and no deadline.)

const SLOW = "[[fault:chunk-delay=100]] [[len:60]] a long answer";

const chat = (model: string, text: string, stream = false) => ({
  model,
  stream,
  messages: [{ role: "user", content: text }],
});

/** A stream that has started (first chunk read) and holds its connection until `leave()`. */
async function holdStream(stack: Stack, model: string) {
  const res = await fetch(`${stack.gateway.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...auth() },
    body: JSON.stringify(chat(model, SLOW, true)),
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  await reader.read();
  return { leave: () => reader.cancel() };
}

const attemptsOf = (stack: Stack, requestId: string | null) => {
  const line = stack
    .logs()
    .find((l) => l["requestId"] === requestId && Array.isArray(l["attempts"]));
  return ((line?.["attempts"] ?? []) as { channel: string; outcome: string }[]).map(
    (a) => `${a.channel}:${a.outcome}`,
  );
};

const gauge = async (stack: Stack, name: string, channel: string) => {
  const text = await (await fetch(`${stack.gateway.url}/metrics`)).text();
  const line = text.split("\n").find((l) => l.startsWith(`${name}{channel="${channel}"}`));
  return line === undefined ? undefined : Number(line.split(" ").at(-1));
};

const gaugeReads = (stack: Stack, name: string, channel: string, value: number) =>
  eventuallyAsync(
    () => gauge(stack, name, channel),
    (read) => read === value,
  );

describe("a channel's connections", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      metrics: { enabled: true },
      extraChannels: (url) => [
        {
          name: "narrow",
          protocol: "openai",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3-0324"],
          max_connections: 1,
          queue_timeout_ms: 300,
        },
        {
          name: "backup",
          protocol: "anthropic",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3-0324"],
          priority: 1,
        },
        {
          name: "only",
          protocol: "openai",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v4-pro"],
          max_connections: 1,
          queue_timeout_ms: 300,
        },
        {
          name: "patient",
          protocol: "openai",
          base_url: url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3.2-exp"],
          max_connections: 1,
          queue_timeout_ms: 30_000,
        },
      ],
    });
  });
  afterAll(() => stack?.close());

  it("a call past max_connections waits its queue time, then takes the next channel", async () => {
    const held = await holdStream(stack, "txtD-v3-0324");
    const res = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      chat("txtD-v3-0324", "hi"),
    );
    expect(res.status).toBe(200);
    expect(attemptsOf(stack, res.headers.get("x-request-id"))).toEqual([
      "narrow:queue-timeout",
      "backup:ok",
    ]);
    await held.leave();
    // The stream's connection is back once its client left: the next call gets the channel.
    await gaugeReads(stack, "interlingua_upstream_connections_in_use", "narrow", 0);
    const again = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      chat("txtD-v3-0324", "hi"),
    );
    expect(attemptsOf(stack, again.headers.get("x-request-id"))).toEqual(["narrow:ok"]);
  });

  it("with no other channel, 503 with Retry-After in the endpoint's envelope", async () => {
    const held = await holdStream(stack, "txtD-v4-pro");
    const res = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      chat("txtD-v4-pro", "hi"),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.json.error.message).toMatch(/every connection .* is in use/);
    expect(typeof res.json.error.type).toBe("string");
    await held.leave();
  });

  it("waiting calls are counted, and a slot passes to the first in line when a stream ends", async () => {
    const held = await holdStream(stack, "txtD-v3.2-exp");
    const waiting = postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      chat("txtD-v3.2-exp", "hi"),
    );
    await gaugeReads(stack, "interlingua_upstream_waiting_requests", "patient", 1);
    await held.leave();
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(attemptsOf(stack, res.headers.get("x-request-id"))).toEqual(["patient:ok"]);
    expect(await gauge(stack, "interlingua_upstream_waiting_requests", "patient")).toBe(0);
  });

  it("a client that leaves while in line gives up its place", async () => {
    const held = await holdStream(stack, "txtD-v3.2-exp");
    const abort = new AbortController();
    const leaving = fetch(`${stack.gateway.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
      body: JSON.stringify(chat("txtD-v3.2-exp", "hi")),
      signal: abort.signal,
    }).catch(() => undefined);
    await gaugeReads(stack, "interlingua_upstream_waiting_requests", "patient", 1);
    abort.abort();
    await leaving;
    await gaugeReads(stack, "interlingua_upstream_waiting_requests", "patient", 0);
    await held.leave();
    await gaugeReads(stack, "interlingua_upstream_connections_in_use", "patient", 0);
  });
});
