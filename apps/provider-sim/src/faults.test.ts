import { describe, expect, it } from "vitest";
import { createProviderSimApp } from "./app.ts";
import { post, readAll, sseEvents, useSim } from "./testing/http.ts";

const sim = useSim();
const failing = useSim({ fault: "status=503" });

type ErrorBody = { error: { type?: string; status?: string } };

type Protocol = {
  name: string;
  path: string;
  headers: Record<string, string>;
  body: (text: string, stream: boolean) => unknown;
  /** The error type or status string in the body. */
  kind: (body: ErrorBody) => string | undefined;
};

const PROTOCOLS: Protocol[] = [
  {
    name: "openai",
    path: "/v1/chat/completions",
    headers: { authorization: "Bearer k" },
    body: (text, stream) => ({ model: "m", stream, messages: [{ role: "user", content: text }] }),
    kind: (b) => b.error.type,
  },
  {
    name: "anthropic",
    path: "/v1/messages",
    headers: { "x-api-key": "k", "anthropic-version": "2023-06-01" },
    body: (text, stream) => ({
      model: "m",
      max_tokens: 100,
      stream,
      messages: [{ role: "user", content: text }],
    }),
    kind: (b) => b.error.type,
  },
  {
    name: "gemini",
    path: "/v1beta/models/m:streamGenerateContent?alt=sse",
    headers: { "x-goog-api-key": "k" },
    body: (text) => ({ contents: [{ role: "user", parts: [{ text }] }] }),
    kind: (b) => b.error.status,
  },
];

const call = (p: Protocol, text: string, fault?: string, stream = true, signal?: AbortSignal) =>
  post(
    `${sim().url}${p.path}`,
    p.body(text, stream),
    { ...p.headers, ...(fault ? { "x-sim-fault": fault } : {}) },
    signal,
  );

const EXPECTED_KINDS: Record<number, Record<string, string>> = {
  400: {
    openai: "invalid_request_error",
    anthropic: "invalid_request_error",
    gemini: "INVALID_ARGUMENT",
  },
  401: {
    openai: "invalid_request_error",
    anthropic: "authentication_error",
    gemini: "UNAUTHENTICATED",
  },
  429: { openai: "requests", anthropic: "rate_limit_error", gemini: "RESOURCE_EXHAUSTED" },
  500: { openai: "server_error", anthropic: "api_error", gemini: "INTERNAL" },
  503: { openai: "server_error", anthropic: "api_error", gemini: "UNAVAILABLE" },
  529: { openai: "server_error", anthropic: "overloaded_error", gemini: "UNAVAILABLE" },
};

describe.each(PROTOCOLS)("faults on $name", (p) => {
  it("answers status=N in the protocol's error shape", async () => {
    for (const [status, kinds] of Object.entries(EXPECTED_KINDS)) {
      const response = await call(p, "hi", `status=${status}`);
      expect(response.status).toBe(Number(status));
      expect(p.kind(await response.json())).toBe(kinds[p.name]);
    }
  });

  it("cuts a stream after reset-after chunks: the client sees a truncated body and an error", async () => {
    const response = await call(p, "[[len:40]]", "reset-after=2");
    expect(response.status).toBe(200);
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    expect(sseEvents(text)).toHaveLength(2);
  });

  it("sends one malformed chunk", async () => {
    const events = sseEvents(await (await call(p, "[[len:20]]", "malformed=1")).text());
    const parses = events
      .filter((e) => e.data !== "[DONE]")
      .map((e) => {
        try {
          JSON.parse(e.data);
          return true;
        } catch {
          return false;
        }
      });
    expect(parses[0]).toBe(true);
    expect(parses[1]).toBe(false);
    expect(parses.slice(2).every(Boolean)).toBe(true);
  });

  it("takes the fault from a [[fault:...]] directive in the prompt", async () => {
    expect((await call(p, "hello [[fault:status=500]]")).status).toBe(500);
  });

  it("sends an in-stream error event after error-after chunks", async () => {
    const events = sseEvents(await (await call(p, "[[len:40]]", "error-after=2")).text());
    expect(events).toHaveLength(3);
    const last = JSON.parse(events[2]!.data);
    expect(last.error).toBeDefined();
    if (p.name === "anthropic") expect(events[2]!.event).toBe("error");
  });
});

describe("rate limits say when to retry", () => {
  it("OpenAI: retry-after header and rate_limit_exceeded", async () => {
    const response = await call(PROTOCOLS[0]!, "hi", "status=429,retry-after=2");
    expect(response.headers.get("retry-after")).toBe("2");
    expect(await response.json()).toEqual({
      error: {
        message: expect.any(String),
        type: "requests",
        param: null,
        code: "rate_limit_exceeded",
      },
    });
  });

  it("Anthropic: retry-after header, request id in header and body", async () => {
    const response = await call(PROTOCOLS[1]!, "hi", "status=429");
    expect(response.headers.get("retry-after")).toBe("1");
    expect(response.headers.get("anthropic-ratelimit-requests-remaining")).toBe("0");
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "rate_limit_error", message: expect.any(String) },
      request_id: response.headers.get("request-id"),
    });
  });

  it("Gemini: RetryInfo in the body, no header", async () => {
    const response = await call(PROTOCOLS[2]!, "hi", "status=429,retry-after=7");
    expect(response.headers.get("retry-after")).toBeNull();
    const body = await response.json();
    expect(body.error).toMatchObject({ code: 429, status: "RESOURCE_EXHAUSTED" });
    expect(body.error.details).toContainEqual({
      "@type": "type.googleapis.com/google.rpc.RetryInfo",
      retryDelay: "7s",
    });
  });
});

describe("timing faults", () => {
  const openai = PROTOCOLS[0]!;

  it("latency=MS delays the first byte", async () => {
    const started = performance.now();
    const response = await call(openai, "hi", "latency=150", false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.status).toBe(200);
  });

  it("chunk-delay=MS paces the stream", async () => {
    const started = performance.now();
    const { text } = await readAll(
      await call(openai, "one two three four five six seven", "chunk-delay=30"),
    );
    expect(sseEvents(text).length).toBe(6); // role, 3 pieces, finish, [DONE]
    expect(performance.now() - started).toBeGreaterThanOrEqual(5 * 30 - 10);
  });

  it("tail=N sends the last N chunks right after the one before them", async () => {
    const delay = 600;
    const response = await call(
      openai,
      "one two three four five six seven",
      `chunk-delay=${delay},tail=2`,
    );
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const started = performance.now();
    let text = "";
    let lastWordAt = Number.NaN;
    let doneAt = Number.NaN;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const now = performance.now();
      if (Number.isNaN(lastWordAt) && text.includes("seven")) lastWordAt = now;
      if (text.includes("[DONE]")) doneAt = now;
    }
    // role, 3 pieces, finish, [DONE]: paced up to the last piece, then finish and [DONE] at once.
    expect(sseEvents(text).length).toBe(6);
    expect(lastWordAt - started).toBeGreaterThanOrEqual(2 * delay - 20);
    expect(doneAt - lastWordAt).toBeLessThan(delay);
  });

  it("hang never answers until the client aborts; the simulator keeps serving", async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 100);
    await expect(call(openai, "hi", "hang", true, controller.signal)).rejects.toThrow();
    // A hang lasts maxDelayMs (30 s here): ending well before it is the abort.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect((await call(openai, "still there?")).status).toBe(200);
  });

  it("hang is bounded by maxDelayMs", async () => {
    const app = createProviderSimApp({ maxDelayMs: 50 });
    const response = await app.fetch(
      new Request("http://sim/v1/messages", {
        method: "POST",
        headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "x-sim-fault": "hang" },
        body: JSON.stringify({
          model: "m",
          max_tokens: 5,
          messages: [{ role: "user", content: "x" }],
        }),
      }),
    );
    expect(response.status).toBe(504);
    expect((await response.json()).error.type).toBe("timeout_error");
  });
});

describe("other fault forms", () => {
  const openai = PROTOCOLS[0]!;

  it("times=N fails only the first N identical requests, so retries succeed", async () => {
    expect(
      (await call(openai, "retry me [[fault:status=429,times=1]]", undefined, false)).status,
    ).toBe(429);
    expect(
      (await call(openai, "retry me [[fault:status=429,times=1]]", undefined, false)).status,
    ).toBe(200);
  });

  it("reset-after on a whole response closes the connection before the body", async () => {
    await expect(call(openai, "hi", "reset-after=0", false)).rejects.toThrow();
  });

  it("malformed on a whole response cuts the JSON", async () => {
    const text = await (await call(openai, "hi", "malformed", false)).text();
    expect(() => JSON.parse(text)).toThrow();
  });

  it("applies to media endpoints too", async () => {
    const response = await post(
      `${sim().url}/v1/images/generations`,
      { model: "gpt-image-1", prompt: "x" },
      {
        authorization: "Bearer k",
        "x-sim-fault": "status=500",
      },
    );
    expect(response.status).toBe(500);
  });

  it("refuses an unknown fault with a 400 naming it", async () => {
    const response = await call(openai, "hi", "explode");
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toBe('unknown fault "explode"');
  });

  it("uses the simulator's default fault when a request has none", async () => {
    const response = await post(
      `${failing().url}/v1/chat/completions`,
      PROTOCOLS[0]!.body("hi", false),
      { authorization: "Bearer k" },
    );
    expect(response.status).toBe(503);
  });

  it("in-process (app.fetch), a reset errors the body stream", async () => {
    const app = createProviderSimApp();
    const response = await app.fetch(
      new Request("http://sim/v1/chat/completions", {
        method: "POST",
        headers: { authorization: "Bearer k", "x-sim-fault": "reset-after=1" },
        body: JSON.stringify({
          model: "m",
          stream: true,
          messages: [{ role: "user", content: "[[len:20]]" }],
        }),
      }),
    );
    const { text, error } = await readAll(response);
    expect(error).toBeInstanceOf(TypeError);
    expect(sseEvents(text)).toHaveLength(1);
  });
});
