import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayMetrics } from "../src/observe/metrics.ts";
import { queueDepth } from "../src/observe/queue-depth.ts";
import { BullMqWorkQueue } from "../src/queue/bullmq-work-queue.ts";
import { newRedisPrefix, REDIS_URL, redisReachable } from "./redis-support.ts";
import { auth, eventually, postJson, type Stack, startStack } from "./stack.ts";
import { POSTGRES_URL, postgresReachable } from "./storage/drivers.ts";
import { mediaChannels } from "./tasks-support.ts";
import { REQUEST } from "./wire.ts";

/** The value of one sample line of the exposition text (labels in any order), or undefined. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const inside = /\{(.*)\}/.exec(line)?.[1] ?? "";
    const have = Object.fromEntries(
      [...inside.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]] as const),
    );
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) {
      return Number(line.slice(line.lastIndexOf(" ") + 1));
    }
  }
  return undefined;
}

const metricsText = async (stack: Stack, path = "/metrics") => {
  const res = await fetch(stack.gateway.url + path, { signal: AbortSignal.timeout(5000) });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
};

describe("metrics", () => {
  let stack: Stack;
  let plain: Stack;
  beforeAll(async () => {
    // txtA-5 first on a channel nobody listens on: every call falls back to the simulator's.
    [stack, plain] = await Promise.all([
      startStack({
        metrics: { enabled: true, path: "/internal/metrics" },
        extraChannels: () => [
          {
            name: "dead",
            protocol: "openai",
            base_url: "http://127.0.0.1:9",
            api_key: "uk-dead-0000-0000",
            models: ["txtA-5"],
            priority: -1,
          },
        ],
      }),
      startStack(),
    ]);
  });
  afterAll(async () => {
    await Promise.all([stack.close(), plain.close()]);
  });

  it("are off by default: no route, nothing documented", async () => {
    expect((await metricsText(plain)).status).toBe(404);
    const doc = await (await fetch(`${plain.gateway.url}/openapi.json`)).json();
    expect(doc.paths["/metrics"]).toBeUndefined();
  });

  it("count requests, calls, tokens, credits, fallbacks, streams and billing lag", async () => {
    const chat = REQUEST.chat({ model: "txtA-5", text: "count me", stream: false });
    expect((await postJson(stack.gateway.url + chat.path, chat.body)).status).toBe(200);
    const streamed = REQUEST.chat({ model: "txtA-5", text: "stream me", stream: true });
    const sse = await postJson(stack.gateway.url + streamed.path, streamed.body);
    expect(sse.status).toBe(200);
    expect(sse.text).toContain("data:");
    expect((await fetch(`${stack.gateway.url}/v1/models`)).status).toBe(401);
    // Refused by a guard before the route's handler ran: still counted under its route.
    const notJson = await fetch(stack.gateway.url + chat.path, {
      method: "POST",
      headers: { ...auth(), "content-type": "text/plain" },
      body: "x",
    });
    expect(notJson.status).toBe(415);
    expect((await fetch(`${stack.gateway.url}/no/such/route`, { headers: auth() })).status).toBe(
      404,
    );

    let text = "";
    const deadline = Date.now() + 5000;
    for (;;) {
      const got = await metricsText(stack, "/internal/metrics");
      expect(got.status).toBe(200);
      expect(got.type).toContain("text/plain");
      text = got.text;
      const calls = sample(text, "interlingua_calls_total", {
        endpoint: "chat",
        model: "txtA-5",
        channel: "oa",
        status: "200",
      });
      if (calls === 2 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    const chatOk = { route: "/v1/chat/completions", method: "POST", format: "chat", status: "200" };
    expect(sample(text, "interlingua_http_requests_total", chatOk)).toBe(2);
    expect(
      sample(text, "interlingua_http_requests_total", { route: "/v1/models", status: "401" }),
    ).toBe(1);
    expect(
      sample(text, "interlingua_http_requests_total", { route: "unmatched", status: "404" }),
    ).toBe(1);
    expect(
      sample(text, "interlingua_http_requests_total", {
        route: "/v1/chat/completions",
        status: "415",
      }),
    ).toBe(1);
    // Whole-response latency for the JSON reply and the 415, not the stream; first byte for all.
    expect(
      sample(text, "interlingua_http_request_duration_seconds_count", {
        route: "/v1/chat/completions",
      }),
    ).toBe(2);
    expect(
      sample(text, "interlingua_time_to_first_byte_seconds_count", {
        route: "/v1/chat/completions",
      }),
    ).toBe(3);
    expect(
      sample(text, "interlingua_calls_total", {
        endpoint: "chat",
        model: "txtA-5",
        channel: "oa",
        status: "200",
      }),
    ).toBe(2);
    expect(
      sample(text, "interlingua_tokens_total", { model: "txtA-5", channel: "oa", kind: "prompt" }),
    ).toBeGreaterThan(0);
    expect(
      sample(text, "interlingua_credits_total", { model: "txtA-5", channel: "oa" }),
    ).toBeGreaterThan(0);
    expect(
      sample(text, "interlingua_upstream_attempts_total", { channel: "oa", outcome: "ok" }),
    ).toBe(2);
    expect(sample(text, "interlingua_upstream_errors_total", { channel: "dead" })).toBe(2);
    expect(sample(text, "interlingua_fallbacks_total", { endpoint: "chat", model: "txtA-5" })).toBe(
      2,
    );
    expect(sample(text, "interlingua_open_streams", { endpoint: "chat" })).toBe(0);
    expect(sample(text, "interlingua_stream_duration_seconds_count", { endpoint: "chat" })).toBe(1);
    expect(sample(text, "interlingua_billing_batch_lag_seconds_count")).toBeGreaterThanOrEqual(2);
    expect(sample(text, "interlingua_billing_batches_total")).toBeGreaterThanOrEqual(1);
    expect(sample(text, "interlingua_queue_depth")).toBeGreaterThanOrEqual(0);
    expect(sample(text, "interlingua_billing_open_holds")).toBe(0);
  });
});

describe("queue depth", () => {
  it("reads the shared BullMQ queues: jobs waiting or delayed", async () => {
    if (!(await redisReachable("queue depth"))) return;
    const prefix = newRedisPrefix("depth");
    const queue = new BullMqWorkQueue({ url: REDIS_URL, prefix });
    const later = Date.now() + 60_000;
    try {
      await queue.schedule("task", "t-1", later);
      await queue.schedule("task", "t-2", later);
      await queue.schedule("webhook", "w-1", later);
      const metrics = new GatewayMetrics({ queueDepth: () => queueDepth(queue) });
      expect(sample((await metrics.render()).body, "interlingua_queue_depth")).toBe(3);
    } finally {
      await queue.close();
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
  });
});

describe("task rows", () => {
  it.each(["sqlite", "postgres"])("counts the tasks not finished yet, on %s", async (driver) => {
    if (driver === "postgres" && !(await postgresReachable())) return;
    // Default polling: the task stays in progress for the length of the test.
    const stack = await startStack({
      metrics: { enabled: true },
      extraChannels: mediaChannels,
      databaseUrl: driver === "postgres" ? POSTGRES_URL : undefined,
    });
    try {
      const submit = await postJson(`${stack.gateway.url}/v1/videos/generations`, {
        model: "vidV3.1-fast",
        prompt: "a counted task",
      });
      expect(submit.status, submit.text).toBe(200);
      const { text } = await metricsText(stack);
      const pending = sample(text, "interlingua_tasks_open", { status: "pending" }) ?? 0;
      const processing = sample(text, "interlingua_tasks_open", { status: "processing" }) ?? 0;
      expect(pending + processing).toBe(1);
    } finally {
      await stack.close();
    }
  });
});

describe("traces", () => {
  const exporter = new InMemorySpanExporter();
  let stack: Stack;
  beforeAll(async () => {
    // What an operator's `--import` file does: a context manager and a provider, registered.
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    stack = await startStack({ tracing: { enabled: true } });
  });
  afterAll(async () => {
    await stack.close();
    trace.disable();
    context.disable();
  });

  it("one span per request with auth, billing and GenAI call children, upstream under the call; ids in the logs", async () => {
    const chat = REQUEST.chat({ model: "txtA-5", text: "trace me", stream: false });
    const res = await postJson(stack.gateway.url + chat.path, chat.body);
    expect(res.status).toBe(200);
    await eventually(() =>
      stack.logs().some((l) => l["msg"] === "request completed" && l["trace_id"] !== undefined),
    );
    // The reply can reach the client before the request and call spans end: wait for both.
    const isRoot = (s: { name: string }) => s.name === "POST /v1/chat/completions";
    const ended = (name: string) => exporter.getFinishedSpans().some((s) => s.name === name);
    await eventually(() => ended("POST /v1/chat/completions") && ended("chat txtA-5"));
    const spans = exporter.getFinishedSpans();
    const root = spans.find(isRoot);
    expect(root).toBeDefined();
    const traceId = root?.spanContext().traceId;
    const rootId = root?.spanContext().spanId;
    const children = spans.filter(
      (s) => s.spanContext().traceId === traceId && s.parentSpanContext?.spanId === rootId,
    );
    expect(children.map((s) => s.name).sort()).toEqual(["auth", "billing.reserve", "chat txtA-5"]);
    // The GenAI call span (ended when the call settles) holds the upstream attempts.
    await eventually(() => exporter.getFinishedSpans().some((s) => s.name === "upstream"));
    const call = children.find((s) => s.name === "chat txtA-5");
    const upstream = exporter
      .getFinishedSpans()
      .find(
        (s) => s.name === "upstream" && s.parentSpanContext?.spanId === call?.spanContext().spanId,
      );
    expect(upstream?.attributes["interlingua.channel"]).toBe("oa");
    expect(root?.attributes["http.response.status_code"]).toBe(200);
    expect(root?.attributes["http.route"]).toBe("/v1/chat/completions");
    const line = stack.logs().find((l) => l["msg"] === "request completed");
    expect(line?.["trace_id"]).toBe(traceId);
    // Charge batches are their own traces (no request waits for them).
    await eventually(() => exporter.getFinishedSpans().some((s) => s.name === "billing.write"));
  });
});
