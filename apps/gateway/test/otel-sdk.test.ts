import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracingMismatch } from "../src/log/tracing.ts";
import { auth, eventually, postJson, type Stack } from "./stack.ts";
import { ackId, settled, startTaskStack } from "./tasks-support.ts";

// Issue 27, point 5: the documented recipe (`@opentelemetry/sdk-node`, registered before the
// gateway starts) really receives the gateway's spans: one @opentelemetry/api for both (the
// gateway takes it as a peer), an incoming traceparent continued, upstream calls and webhook
// pushes carrying one, GenAI semantic attributes, and task and webhook spans linked to the
// request that submitted the task.

const exporter = new InMemorySpanExporter();
const sdk = new NodeSDK({
  serviceName: "interlingua-gateway-test",
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
sdk.start();

const CLIENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
const CLIENT_SPAN = "b7ad6b7169203331";

let stack: Stack;
let receiver: Server;
const pushes: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    pushes.push(req.headers);
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  stack = await startTaskStack({
    tracing: { enabled: true },
    webhooks: { allow_private_targets: true },
  });
});

afterAll(async () => {
  await stack?.close();
  receiver?.close();
  await sdk.shutdown();
});

const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const traceOf = (span: { spanContext(): { traceId: string } }) => span.spanContext().traceId;

describe("OpenTelemetry with @opentelemetry/sdk-node", () => {
  it("shares one @opentelemetry/api with the SDK: spans arrive, no mismatch reported", () => {
    expect(tracingMismatch()).toBeUndefined();
  });

  it("continues an incoming traceparent and sends one upstream", async () => {
    const seen = stack.sim.requests.length;
    const res = await postJson(
      `${stack.gateway.url}/v1/chat/completions`,
      { model: "txtA-5", messages: [{ role: "user", content: "trace me" }] },
      { ...auth(), traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
    );
    expect(res.status).toBe(200);
    await eventually(() => named("POST /v1/chat/completions").length > 0);
    const server = named("POST /v1/chat/completions").at(-1)!;
    expect(traceOf(server)).toBe(CLIENT_TRACE);
    expect(server.parentSpanContext?.spanId).toBe(CLIENT_SPAN);
    // The upstream saw the same trace, from the gateway's upstream span.
    const upstream = stack.sim.requests.slice(seen).find((r) => r.path === "/v1/chat/completions");
    const sent = upstream?.headers["traceparent"] ?? "";
    expect(sent).toMatch(new RegExp(`^00-${CLIENT_TRACE}-[0-9a-f]{16}-01$`));
    const attempt = named("upstream").find((span) => sent.includes(span.spanContext().spanId));
    expect(attempt).toBeDefined();
  });

  it("marks the call with the GenAI conventions, streams included", async () => {
    for (const stream of [false, true]) {
      exporter.reset();
      const res = await postJson(`${stack.gateway.url}/v1/chat/completions`, {
        model: "txtA-5",
        stream,
        ...(stream ? { stream_options: { include_usage: true } } : {}),
        messages: [{ role: "user", content: `genai ${stream}` }],
      });
      expect(res.status).toBe(200);
      await eventually(() => named("chat txtA-5").length > 0);
      const call = named("chat txtA-5")[0]!;
      expect(call.attributes).toMatchObject({
        "gen_ai.operation.name": "chat",
        "gen_ai.provider.name": "openai",
        "gen_ai.request.model": "txtA-5",
        "gen_ai.response.model": "txtA-5",
        "gen_ai.response.finish_reasons": ["stop"],
      });
      expect(call.attributes["gen_ai.usage.input_tokens"]).toBeGreaterThan(0);
      expect(call.attributes["gen_ai.usage.output_tokens"]).toBeGreaterThan(0);
      // The upstream attempt is its child.
      const attempt = named("upstream")[0]!;
      expect(attempt.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
    }
  });

  it("links a task's steps and its webhook push to the request that submitted it", async () => {
    exporter.reset();
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const sub = await postJson(`${stack.gateway.url}/v1/images/generations`, {
      model: "txtA-image-2",
      prompt: "a traced cat",
      webhook: base,
    });
    expect(sub.status).toBe(200);
    const id = ackId(sub.json);
    expect((await settled(stack, id)).status).toBe("completed");
    await eventually(() => named("webhook.deliver").length > 0 && pushes.length > 0, 10_000);
    const submit = named("POST /v1/images/generations")[0]!;
    for (const name of ["task.step", "webhook.deliver"]) {
      const span = named(name)[0]!;
      expect(
        span.links.map((link) => link.context.spanId),
        name,
      ).toContain(submit.spanContext().spanId);
      expect(span.links[0]?.context.traceId, name).toBe(traceOf(submit));
    }
    // The push carries the trace of its own span.
    const push = named("webhook.deliver")[0]!;
    expect(String(pushes.at(-1)?.["traceparent"])).toContain(traceOf(push));
  });
});
