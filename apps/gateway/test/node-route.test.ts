import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY, type Stack, startStack } from "./stack.ts";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A POST with its headers as given, raw: a header named twice sends the request through the
 * Hono app instead of the generation routes' Node listener (generation-listener.ts).
 */
function post(url: string, raw: string[], body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers = ["host", new URL(url).host, ...raw];
    const req = request(url, { method: "POST", headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) headers[name] = String(value);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString() });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** What may differ between two answers to the same request: ids, times, the upstream's text. */
const comparable = (answer: Answer, compareBody: boolean) => ({
  status: answer.status,
  headers: Object.fromEntries(
    Object.entries(answer.headers)
      .filter(([name]) => !["date", "x-request-id", "keep-alive", "connection"].includes(name))
      .map(([name, value]) => [name, name === "content-length" && !compareBody ? "n" : value]),
  ),
  body: compareBody ? answer.body.replace(/req_[\w-]+/g, "req_") : "",
});

describe("the generation routes on node:http answer as the Hono app does", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ limits: { max_body_bytes: 4096 } });
  });
  afterAll(() => stack.close());

  const chat = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ model: "txtA-5", messages: [{ role: "user", content: "hi" }], ...extra });
  const cases: [string, string, string[], string, boolean][] = [
    ["chat", "/v1/chat/completions", ["authorization", `Bearer ${KEY}`], chat(), false],
    ["no key", "/v1/chat/completions", [], chat(), true],
    ["bad key (messages)", "/v1/messages", ["x-api-key", "sk-nope"], chat(), true],
    ["not JSON", "/v1/responses", ["authorization", `Bearer ${KEY}`], "{", true],
    ["415", "/v1/chat/completions", ["content-type", "text/plain"], chat(), true],
    [
      "too large",
      "/v1/chat/completions",
      ["authorization", `Bearer ${KEY}`],
      "x".repeat(5000),
      true,
    ],
    [
      "unknown model",
      "/v1/chat/completions",
      ["authorization", `Bearer ${KEY}`],
      chat({ model: "nope-1" }),
      true,
    ],
    ["native method", "/v1beta/models/txtA-5:nope", ["authorization", `Bearer ${KEY}`], "{}", true],
    ["native, query key", `/v1beta/models/nope-1:generateContent?key=${KEY}`, [], "{}", true],
    [
      "stream",
      "/v1/chat/completions",
      ["authorization", `Bearer ${KEY}`],
      chat({ stream: true }),
      false,
    ],
  ];

  it.each(cases)("%s", async (_name, path, headers, body, compareBody) => {
    const url = stack.gateway.url + path;
    const direct = await post(url, headers, body);
    // The same request with a header named twice: the Hono app answers it.
    const viaHono = await post(url, [...headers, "x-twice", "1", "x-twice", "2"], body);
    expect(direct.headers["x-request-id"], JSON.stringify(direct)).toMatch(/^req_/);
    expect(comparable(direct, compareBody)).toEqual(comparable(viaHono, compareBody));
  });
});
