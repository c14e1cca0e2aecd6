import { once } from "node:events";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auth, KEY, type Stack, startStack } from "./stack.ts";
import type { Json } from "./wire.ts";

// Issue 15, item 8: what Node or the router answered bare, or in the wrong envelope, answers in
// the envelope of the path; slow and concurrent huge bodies are bounded.

const BODY_TIMEOUT_MS = 400;
const CAP = 8192;
const INFLIGHT = 10_000;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    limits: {
      max_body_bytes: CAP,
      body_timeout_ms: BODY_TIMEOUT_MS,
      max_inflight_body_bytes: INFLIGHT,
    },
  });
});
afterAll(() => stack.close());
const url = (path: string) => stack.gateway.url + path;

const chatBody = JSON.stringify({ model: "txtA-5", messages: [{ role: "user", content: "hi" }] });

async function post(path: string, body: BodyInit, headers: Record<string, string>) {
  const res = await fetch(url(path), {
    method: "POST",
    headers: { ...auth(), ...headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

/** A raw connection to the gateway, to send a request in pieces (or not at all). */
async function rawSocket(
  port = stack.gateway.port,
): Promise<{ socket: Socket; reply: Promise<string>; first: Promise<string> }> {
  const socket = connect(port, "127.0.0.1");
  await once(socket, "connect");
  const first = new Promise<string>((resolve) => {
    socket.once("data", (data) => resolve(data.toString("utf8")));
    socket.once("close", () => resolve(""));
  });
  const reply = new Promise<string>((resolve) => {
    let text = "";
    socket.on("data", (data) => {
      text += data.toString("utf8");
    });
    socket.on("close", () => resolve(text));
    socket.on("error", () => resolve(text));
  });
  return { socket, reply, first };
}

const bodyOf = (raw: string) => JSON.parse(raw.slice(raw.indexOf("\r\n\r\n") + 4));

/**
 * Sends until the gateway answers 503, at most 50 times: a held body is counted once its headers
 * are read, which a loaded machine may not have done yet when the next request arrives. A count
 * that never covers it still fails (every try answered 200).
 */
async function untilRefused<T>(send: () => Promise<T>, status: (reply: T) => number): Promise<T> {
  for (let tries = 1; ; tries++) {
    const reply = await send();
    if (status(reply) === 503 || tries >= 50) return reply;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("header fields too large", () => {
  it("431 in the JSON error envelope, not an empty body", async () => {
    const { status, body, type } = await new Promise<{
      status: number;
      body: string;
      type: string | undefined;
    }>((resolve, reject) => {
      const req = httpRequest(
        url("/v1/chat/completions"),
        { method: "POST", headers: { ...auth(), "x-padding": "p".repeat(40_000) } },
        (res) => {
          let text = "";
          res.on("data", (chunk) => {
            text += chunk;
          });
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: text, type: res.headers["content-type"] }),
          );
        },
      );
      req.on("error", reject);
      req.end(chatBody);
    });
    expect(status).toBe(431);
    expect(type).toBe("application/json");
    expect(JSON.parse(body)).toEqual({
      error: {
        code: 431,
        message: "request header fields too large",
        type: "invalid_request_error",
      },
    });
  });
});

describe("Content-Type other than JSON on JSON endpoints: 415 in each envelope", () => {
  it("standard (chat), messages, native and management envelopes", async () => {
    const chat = await post("/v1/chat/completions", chatBody, { "content-type": "text/plain" });
    expect(chat.status).toBe(415);
    expect(chat.json).toEqual({
      error: {
        code: 415,
        message: expect.stringContaining("text/plain"),
        type: "invalid_request_error",
      },
    });
    const messages = await post("/v1/messages", chatBody, {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(messages.status).toBe(415);
    expect(messages.json).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error" },
    });
    const native = await post("/v1beta/models/txtC-2.5-pro:generateContent", "{}", {
      "content-type": "text/xml",
    });
    expect(native.status).toBe(415);
    expect(native.json).toEqual({
      error: { code: 415, message: expect.any(String), status: "INVALID_ARGUMENT" },
    });
    const management = await post("/api/token", JSON.stringify({ name: "x" }), {
      "content-type": "text/plain",
    });
    expect(management.status).toBe(415);
    expect(management.json).toEqual({ success: false, message: expect.any(String), data: null });
  });

  it("a key that is not live hears its 401 first, whatever the Content-Type", async () => {
    // The Node route (chat, native) and the app's routes (messages count, management) alike.
    const refused = [
      ["/v1/chat/completions", { authorization: "Bearer sk-not-a-key" }],
      ["/v1/messages/count_tokens", { "x-api-key": "sk-not-a-key" }],
      ["/v1beta/models/txtC-2.5-pro:generateContent", { "x-goog-api-key": "sk-not-a-key" }],
    ] as const;
    for (const [path, key] of refused) {
      const res = await post(path, chatBody, {
        authorization: "Bearer sk-not-a-key",
        ...key,
        "content-type": "text/plain",
      });
      expect(res.status, path).toBe(401);
      expect(res.text, path).toContain("invalid API key");
    }
  });

  it("JSON with parameters, +json types and no Content-Type at all are read as JSON", async () => {
    for (const type of ["application/json; charset=utf-8", "application/vnd.api+json"]) {
      expect((await post("/v1/chat/completions", chatBody, { "content-type": type })).status).toBe(
        200,
      );
    }
    const bare = await fetch(url("/v1/chat/completions"), {
      method: "POST",
      headers: auth(),
      body: new Blob([chatBody]),
    });
    expect(bare.status).toBe(200);
  });

  it("the multipart endpoints keep taking multipart", async () => {
    for (const path of ["/v1/uploads/images", "/v1/audio/transcriptions"]) {
      const form = new FormData();
      form.append("model", "asrW-1");
      const res = await post(path, form, {});
      expect(res.status, path).not.toBe(415);
      expect(res.status, path).toBeLessThan(500);
    }
  });
});

describe("slow and concurrent bodies", () => {
  it("a body not received in time: 408 in the envelope, connection closed", async () => {
    const { socket, reply } = await rawSocket();
    const started = Date.now();
    socket.write(
      `POST /v1/messages HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${KEY}\r\n` +
        "content-type: application/json\r\ncontent-length: 100\r\n\r\n{",
    );
    const raw = await reply;
    expect(Date.now() - started).toBeLessThan(BODY_TIMEOUT_MS + 3_000);
    expect(raw.startsWith("HTTP/1.1 408")).toBe(true);
    // The path is known by then: the messages envelope.
    expect(bodyOf(raw)).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: expect.stringContaining("in time") },
    });
  });

  it("an upload not received in time: 408 in the upload body, {error: {message, type}}", async () => {
    // docs/api-reference.md Errors: upload errors are `{error: {message, type}}` (only a 429 adds
    // `code`), also when Node answers before the route, as for a slow 20 MB upload.
    const { socket, reply } = await rawSocket();
    socket.write(
      `POST /v1/uploads/images HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${KEY}\r\n` +
        "content-type: multipart/form-data; boundary=b\r\ncontent-length: 1000\r\n\r\n--b\r\n",
    );
    const raw = await reply;
    expect(raw.startsWith("HTTP/1.1 408")).toBe(true);
    expect(bodyOf(raw)).toEqual({
      error: { message: expect.stringContaining("in time"), type: "invalid_request_error" },
    });
  });

  it("bodies past max_inflight_body_bytes at once: 503 with Retry-After, until the first is done", async () => {
    // Its own gateway: the first body must stay in flight longer than the short timeout above.
    const patient = await startStack({
      limits: { max_body_bytes: CAP, max_inflight_body_bytes: INFLIGHT },
    });
    const post = (body: string) =>
      fetch(`${patient.gateway.url}/v1/chat/completions`, {
        method: "POST",
        headers: { ...auth(), "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(10_000),
      });
    try {
      // (Not ended: Node drops a request whose client half-closes.)
      const { socket, first: answer } = await rawSocket(patient.gateway.port);
      const head = (length: number) =>
        `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${KEY}\r\n` +
        `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
      const first = chatBody.padEnd(8_000, " ");
      // Headers and half of the body: the first request is in flight, 8,000 bytes counted.
      socket.write(head(first.length) + first.slice(0, 4_000));
      const second = chatBody.padEnd(5_000, " ");
      const refused = await untilRefused(
        () => post(second),
        (r) => r.status,
      );
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toMatchObject({ error: { code: 503 } });
      // A small body still fits beside it.
      expect((await post(chatBody)).status).toBe(200);
      socket.write(first.slice(4_000));
      const answered = await answer;
      socket.destroy();
      expect(answered.slice(0, 200)).toMatch(/^HTTP\/1.1 200/);
      expect((await post(second)).status).toBe(200);
    } finally {
      await patient.close();
    }
  });
});

describe("one in-flight count for both entrances", () => {
  it("a body on the Node route and one through the Hono app add up to one count", async () => {
    const patient = await startStack({
      limits: { max_body_bytes: CAP, max_inflight_body_bytes: INFLIGHT },
    });
    const head = (target: string, length: number) =>
      `POST ${target} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${KEY}\r\n` +
      `content-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
    try {
      // A plain target: the Node route; 8,000 bytes counted while half of it is unsent.
      const held = await rawSocket(patient.gateway.port);
      const first = chatBody.padEnd(8_000, " ");
      held.socket.write(head("/v1/chat/completions", first.length) + first.slice(0, 4_000));
      // An absolute-form target: the Hono app's entrance, the same count.
      const second = chatBody.padEnd(5_000, " ");
      const refused = await untilRefused(
        async () => {
          const other = await rawSocket(patient.gateway.port);
          other.socket.write(
            head(`${patient.gateway.url}/v1/chat/completions`, second.length) + second,
          );
          const reply = await other.first;
          other.socket.destroy();
          return reply;
        },
        (reply) => Number(reply.slice(9, 12)),
      );
      expect(refused).toMatch(/^HTTP\/1.1 503/);
      expect(refused.toLowerCase()).toContain("retry-after: 1");
      held.socket.write(first.slice(4_000));
      expect((await held.first).slice(0, 200)).toMatch(/^HTTP\/1.1 200/);
      held.socket.destroy();
    } finally {
      await patient.close();
    }
  });
});

describe("unknown routes answer in the envelope of their path", () => {
  it("/api/* in {success: false, message}, /v1beta/* in the native envelope, others standard", async () => {
    const api = await fetch(url("/api/nothing/here"), { headers: auth() });
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ success: false, message: expect.any(String), data: null });
    const native = await fetch(url("/v1beta/nothing"), { headers: auth() });
    expect(native.status).toBe(404);
    expect(await native.json()).toEqual({
      error: { code: 404, message: expect.any(String), status: "NOT_FOUND" },
    });
    const standard = await fetch(url("/v1/nothing"), { headers: auth() });
    expect(await standard.json()).toEqual({
      error: { code: 404, message: expect.any(String), type: "not_found_error" },
    });
  });
});
