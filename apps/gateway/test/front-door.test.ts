import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY, type Stack, startStack } from "./stack.ts";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A POST with its request target and headers as given, raw (a header may come twice). */
function post(base: string, target: string, raw: string[], body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(base);
    const hasHost = raw.some((name, i) => i % 2 === 0 && name === "host");
    const headers = [...(hasHost ? [] : ["host", `${hostname}:${port}`]), ...raw];
    const req = request({ hostname, port, path: target, method: "POST", headers }, (res) => {
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
      .filter(
        ([name]) =>
          !["date", "x-request-id", "request-id", "keep-alive", "connection"].includes(name),
      )
      .map(([name, value]) => [name, name === "content-length" && !compareBody ? "n" : value]),
  ),
  body: compareBody ? answer.body.replace(/req_[\w-]+/g, "req_") : "",
});

describe("the front door answers a generation request the same in every form", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ limits: { max_body_bytes: 4096 } });
  });
  afterAll(() => stack.close());

  const chat = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ model: "txtA-5", messages: [{ role: "user", content: "hi" }], ...extra });
  const auth = ["authorization", `Bearer ${KEY}`];
  const cases: [string, string, string[], string, boolean][] = [
    ["chat", "/v1/chat/completions", auth, chat(), false],
    ["no key", "/v1/chat/completions", [], chat(), true],
    ["bad key (messages)", "/v1/messages", ["x-api-key", "sk-nope"], chat(), true],
    ["not JSON", "/v1/responses", auth, "{", true],
    ["415", "/v1/chat/completions", ["content-type", "text/plain"], chat(), true],
    ["too large", "/v1/chat/completions", auth, "x".repeat(5000), true],
    ["unknown model", "/v1/chat/completions", auth, chat({ model: "nope-1" }), true],
    ["native method", "/v1beta/models/txtA-5:nope", auth, "{}", true],
    ["native, query key", `/v1beta/models/nope-1:generateContent?key=${KEY}`, [], "{}", true],
    ["native", "/v1beta/models/txtA-5:generateContent", auth, "{}", true],
    ["stream", "/v1/chat/completions", auth, chat({ stream: true }), false],
  ];

  /** Other spellings of the same request target, as a client or a proxy may send it. */
  const spellings = (target: string, base: string): [string, string][] => [
    ["absolute-form", `${base}${target}`],
    // `%3A`: a native target's colon escaped, decoded as a path parameter.
    ["percent-escaped", target.replace("/v1", "/v%31").replace(":", "%3A")],
    ["dot segments", target.replace(/^\/([^/]+)\//, "/$1/x/../")],
  ];

  it.each(cases)("%s", async (_name, target, headers, body, compareBody) => {
    const base = stack.gateway.url;
    const plain = await post(base, target, headers, body);
    expect(plain.headers["x-request-id"], JSON.stringify(plain)).toMatch(/^req_/);
    // The app has no generation route: its 404 would say so.
    expect(plain.body).not.toContain("no route for");
    const same = comparable(plain, compareBody);
    // A header named twice: read as a web Headers reads it.
    const twice = await post(base, target, [...headers, "x-twice", "1", "x-twice", "2"], body);
    expect(comparable(twice, compareBody)).toEqual(same);
    for (const [form, spelled] of spellings(target, base)) {
      const answer = await post(base, spelled, headers, body);
      expect(comparable(answer, compareBody), `${form}: ${spelled}`).toEqual(same);
    }
  });

  it("reads a repeated Authorization header as web Headers does: all values, so refused", async () => {
    const answer = await post(
      stack.gateway.url,
      "/v1/chat/completions",
      ["authorization", `Bearer ${KEY}`, "authorization", "Bearer sk-other"],
      chat(),
    );
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: "invalid API key" } });
  });

  it("decodes a native target once: an escaped % stays a % in the model id", async () => {
    const answer = await post(
      stack.gateway.url,
      "/v1beta/models/nope%2541:generateContent",
      ["authorization", `Bearer ${KEY}`],
      JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
    );
    // Decoded twice, `%2541` would read as `A`.
    expect(answer.body).toContain("nope%41");
    expect(answer.body).not.toContain("nopeA");
  });

  it("refuses a Host it cannot read in the endpoint's envelope", async () => {
    const answer = await post(
      stack.gateway.url,
      "/v1/messages",
      ["host", "bad host", "x-api-key", KEY],
      chat(),
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: expect.stringMatching(/^invalid Host header/),
      },
    });
  });

  it("leaves a path it does not serve to the app (404 in the path's envelope)", async () => {
    const answer = await post(stack.gateway.url, "/v1/chat/completion", [], chat());
    expect(answer.status).toBe(404);
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
  });
});
