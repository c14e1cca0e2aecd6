import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProviderSim } from "@interlingua/provider-sim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { UsageLogRow } from "../src/storage/store.ts";
import { type Sim, type Stack, simChannels, startStack, tokenRow, UPSTREAM_KEY } from "./stack.ts";
import { loggedRowsOf } from "./usage-rows.ts";
import {
  type ClientFormat,
  type Frame,
  type Json,
  parseSse,
  READ_STREAM,
  REQUEST,
} from "./wire.ts";

// Issue 15, "fault injection through provider-sim": each upstream fault, and for each what the
// client is answered, whether another channel takes over, and what is charged. The simulator's
// fault directives cover the network and status faults; recordings it replays (`[[replay:…]]`,
// written below) cover bodies no real provider should send: HTML or JSON answering a stream,
// frames cut short, duplicated events, absurd or missing usage. Extends upstream-faults.test.ts
// (which covers envelopes of 429/5xx, the breaker and mid-stream resets) without repeating it.

const KEY = "sk-faults";

const chunk = (delta: Json, finish: string | null = null) =>
  JSON.stringify({
    id: "chatcmpl-f",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
const usageChunk = (prompt: number, completion: number) =>
  JSON.stringify({
    id: "chatcmpl-f",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    },
  });

/** Recordings the simulator replays verbatim (`openai-chat/` lines are framed as chat chunks). */
const FIXTURES: Record<string, string> = {
  "openai-chat/html.json": "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>",
  "openai-chat/reply.json": JSON.stringify({
    id: "chatcmpl-j",
    object: "chat.completion",
    created: 1,
    model: "m",
    choices: [
      { index: 0, message: { role: "assistant", content: "a whole reply" }, finish_reason: "stop" },
    ],
    usage: { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 },
  }),
  "openai-chat/cut.chunks.txt": [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "alpha " }),
    '{"id":"chatcmpl-f","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"bra',
    chunk({ content: "charlie" }),
    chunk({}, "stop"),
    usageChunk(9, 3),
  ].join("\n"),
  "openai-chat/dup.chunks.txt": [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "twice " }),
    chunk({ content: "twice " }),
    chunk({}, "stop"),
    chunk({}, "stop"),
    usageChunk(9, 4),
    usageChunk(9, 4),
  ].join("\n"),
  "openai-chat/absurd.chunks.txt": [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "tiny" }),
    chunk({}, "stop"),
    usageChunk(9, 1_000_000_000_000),
  ].join("\n"),
  "openai-chat/no-usage.chunks.txt": [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "forty characters of text, more or less!!" }),
  ].join("\n"),
  "openai-chat/partial-usage.chunks.txt": [
    chunk({ role: "assistant", content: "" }),
    chunk({ content: "some text" }),
    chunk({}, "stop"),
    JSON.stringify({
      id: "chatcmpl-f",
      object: "chat.completion.chunk",
      choices: [],
      usage: { prompt_tokens: 9 },
    }),
  ].join("\n"),
  "anthropic/nonsense-usage.chunks.txt": [
    '{"type":"message_start","message":{"id":"msg_n","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":-5000000,"output_tokens":1}}}',
    '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"forty characters of text, more or less!!"}}',
    '{"type":"content_block_stop","index":0}',
    '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":-5000000}}',
    '{"type":"message_stop"}',
  ].join("\n"),
  "gemini/nonsense-usage.chunks.txt": JSON.stringify({
    candidates: [
      {
        content: { role: "model", parts: [{ text: "forty characters of text, more or less!!" }] },
        finishReason: "STOP",
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount: -5000000, candidatesTokenCount: -5000000 },
  }),
  "anthropic/dup.chunks.txt": [
    '{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":9,"output_tokens":1}}}',
    '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"twice "}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"twice "}}',
    '{"type":"content_block_stop","index":0}',
    '{"type":"content_block_stop","index":0}',
    '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}',
    '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}',
    '{"type":"message_stop"}',
    '{"type":"message_stop"}',
  ].join("\n"),
};

let fixtures: string;
let sim: Sim;
let stack: Stack;

beforeAll(async () => {
  fixtures = await mkdtemp(join(tmpdir(), "faults-"));
  for (const [path, text] of Object.entries(FIXTURES)) {
    await mkdir(join(fixtures, path, ".."), { recursive: true });
    await writeFile(join(fixtures, path), text);
  }
  sim = await startProviderSim({ port: 0, keys: [UPSTREAM_KEY], fixturesDir: fixtures });
  const closed = await startProviderSim({ port: 0 });
  const nobody = closed.url;
  await closed.close();
  stack = await startStack(
    {
      users: [{ id: "alice", quota: 1_000_000_000 }],
      tokens: [{ key: KEY, user: "alice", quota: 500_000_000, name: "faults" }],
      channels: [
        ...simChannels(sim.url),
        // Fallback pairs: the first of each fails, the second (another protocol) answers.
        {
          name: "first",
          protocol: "openai",
          base_url: sim.url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3.2-exp"],
        },
        {
          name: "second",
          protocol: "anthropic",
          base_url: sim.url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3.2-exp"],
          priority: 1,
        },
        {
          name: "nobody",
          protocol: "openai",
          base_url: nobody,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v4-pro"],
        },
        {
          name: "rescue",
          protocol: "gemini",
          base_url: sim.url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v4-pro"],
          priority: 1,
        },
        {
          name: "slow",
          protocol: "openai",
          base_url: sim.url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3-0324"],
          timeout: { first_byte_ms: 300, idle_ms: 300 },
        },
        {
          name: "patient",
          protocol: "anthropic",
          base_url: sim.url,
          api_key: UPSTREAM_KEY,
          models: ["txtD-v3-0324"],
          priority: 1,
        },
      ],
    },
    {
      breaker: { failureThreshold: 10_000, cooldownMs: 1000 },
      timeouts: { headersMs: 5000, bodyMs: 5000, connectMs: 1000 },
    },
  );
});
afterAll(async () => {
  await stack?.close();
  await sim?.close();
  await rm(fixtures, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
  frames: Frame[];
  requestId: string | null;
}

async function call(
  format: ClientFormat,
  model: string,
  text: string,
  stream: boolean,
  extra: Record<string, unknown> = {},
): Promise<Answer> {
  const { path, body } = REQUEST[format]({ model, text, stream });
  const res = await fetch(stack.gateway.url + path, {
    method: "POST",
    headers: { authorization: `Bearer ${KEY}`, "content-type": "application/json" },
    body: JSON.stringify({ ...body, ...extra }),
    signal: AbortSignal.timeout(15_000),
  });
  const raw = await res.text();
  let json: Json;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  return {
    status: res.status,
    headers: res.headers,
    text: raw,
    json,
    frames: (res.headers.get("content-type") ?? "").includes("event-stream") ? parseSse(raw) : [],
    requestId: res.headers.get("x-request-id"),
  };
}

async function rowOf(requestId: string | null): Promise<UsageLogRow> {
  const found = await loggedRowsOf(stack, requestId);
  // One call, one row: a fault never charges (or logs) a call twice.
  expect(found).toHaveLength(1);
  return found[0]!;
}

/** The attempts the gateway logged for a request, as `channel:outcome`. */
function attempts(requestId: string | null): string[] {
  const line = stack
    .logs()
    .find((l) => l["requestId"] === requestId && Array.isArray(l["attempts"]));
  return ((line?.["attempts"] ?? []) as { channel: string; outcome: string }[]).map(
    (a) => `${a.channel}:${a.outcome}`,
  );
}

const lastJson = (frames: Frame[]): Json =>
  JSON.parse(frames.filter((f) => f.data !== "[DONE]").at(-1)!.data);

describe("faults before the first byte: another channel answers, the failed attempt costs nothing", () => {
  const cases: [string, string, string, string[]][] = [
    ["refused connection", "txtD-v4-pro", "refused", ["nobody:connection", "rescue:ok"]],
    [
      "reset before headers",
      "txtD-v3.2-exp",
      "[[fault:reset-after=0,times=1]] reset",
      ["first:connection", "second:ok"],
    ],
    ["5xx", "txtD-v3.2-exp", "[[fault:status=500,times=1]] five", ["first:status", "second:ok"]],
    [
      "429 with Retry-After",
      "txtD-v3.2-exp",
      "[[fault:status=429,retry-after=9,times=1]] slow down",
      ["first:status", "second:ok"],
    ],
    [
      "slow first byte past first_byte_ms",
      "txtD-v3-0324",
      "[[fault:latency=2000,times=1]] late",
      ["slow:timeout", "patient:ok"],
    ],
    [
      "malformed JSON body",
      "txtD-v3.2-exp",
      "[[fault:malformed,times=1]] half",
      ["first:malformed", "second:ok"],
    ],
  ];
  for (const [name, model, text, tried] of cases) {
    // A malformed stream is cut after its first byte (below).
    for (const stream of name.startsWith("malformed") ? [false] : [false, true]) {
      it(`${name} (${stream ? "stream" : "non-stream"})`, async () => {
        // `times=1` counts per prompt: each variant gets its own.
        const res = await call("chat", model, `${text} ${stream}`, stream);
        expect(res.status, res.text).toBe(200);
        const reply = stream
          ? READ_STREAM.chat(res.frames).text
          : res.json.data.choices[0].message.content;
        expect(reply).toContain(`${text.replace(/\[\[[^\]]*\]\] ?/g, "")} ${stream}`);
        const row = await rowOf(res.requestId);
        // Charged once, for the channel that answered, from its reported usage.
        expect(row).toMatchObject({ status: 200, channel: tried.at(-1)!.split(":")[0] });
        expect(row.estimated).toBeUndefined();
        expect(row.credits).toBeGreaterThan(0);
        expect(attempts(res.requestId)).toEqual(tried);
      });
    }
  }

  it("with no channel left: 429 keeps its status and Retry-After; others are 502; nothing is charged", async () => {
    const limited = await call("chat", "txtA-5", "[[fault:status=429,retry-after=9]] alone", false);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("9");
    expect(limited.json.error).toMatchObject({ code: 429, type: "rate_limit_error" });
    expect(await rowOf(limited.requestId)).toMatchObject({ status: 429, credits: 0 });
    for (const [format, model] of [
      ["chat", "txtA-5"],
      ["messages", "txtB-sonnet-4-6"],
      ["native", "txtC-2.5-pro"],
      ["responses", "txtA-5"],
    ] as const) {
      const res = await call(format, model, "[[fault:status=503]] down", true);
      expect(res.status, format).toBe(503);
      const reset = await call(format, model, "[[fault:reset-after=0]] gone", true);
      expect(reset.status, format).toBe(502);
      expect(await rowOf(reset.requestId)).toMatchObject({ status: 502, credits: 0 });
    }
  });
});

describe("faults after the first byte: the stream ends with an error event, delivered output is charged", () => {
  it("reset mid-stream, every client format: error event last, estimate charged", async () => {
    for (const [format, model] of [
      ["chat", "txtA-5"],
      ["messages", "txtB-sonnet-4-6"],
      ["native", "txtC-2.5-pro"],
      ["responses", "txtB-sonnet-4-6"],
    ] as const) {
      const res = await call(format, model, "[[fault:reset-after=3]] [[len:60]] cut", true);
      expect(res.status, format).toBe(200);
      expect(res.text, format).toMatch(/bad_gateway|api_error|BAD_GATEWAY|"error"/);
      const row = await rowOf(res.requestId);
      expect(row.estimated, format).toBe(true);
      expect(row.credits, format).toBeGreaterThan(0);
      expect(row.completionTokens, format).toBeLessThan(60);
    }
  });

  it("malformed SSE (a frame cut in half), same format: error event, never the broken frame", async () => {
    for (const at of [0, 2]) {
      const res = await call("chat", "txtA-5", `[[fault:malformed=${at}]] [[len:30]] broken`, true);
      expect(res.status).toBe(200);
      for (const frame of res.frames) {
        if (frame.data !== "[DONE]") expect(() => JSON.parse(frame.data)).not.toThrow();
      }
      expect(lastJson(res.frames).error).toMatchObject({ type: "bad_gateway" });
      // Broken before any output and with no usage reported: not charged (issue 26, item 9).
      expect(await rowOf(res.requestId)).toMatchObject(
        at === 0 ? { status: 502, credits: 0 } : { status: 502, estimated: true },
      );
    }
  });

  it("drip: slow chunks within idle_ms are relayed whole and charged their real usage", async () => {
    const res = await call("chat", "txtA-5", "[[fault:chunk-delay=30]] [[len:12]] drip", true);
    expect(res.status).toBe(200);
    expect(READ_STREAM.chat(res.frames).text.split(" ")).toHaveLength(12);
    const row = await rowOf(res.requestId);
    expect(row.estimated).toBeUndefined();
    expect(row.completionTokens).toBeGreaterThan(0);
  });

  it("silence past idle_ms after the first byte, before any output: error event, no charge", async () => {
    const res = await call(
      "chat",
      "txtD-v3-0324",
      "[[fault:chunk-delay=1500]] [[len:30]] stall",
      true,
    );
    expect(res.status).toBe(200);
    expect(lastJson(res.frames).error).toMatchObject({ type: "bad_gateway" });
    const row = await rowOf(res.requestId);
    // Only the role chunk came before the silence: nothing delivered, nothing reported, not
    // charged (issue 26, item 9).
    expect(row).toMatchObject({ status: 502, credits: 0 });
  });

  it("an in-stream upstream error event reaches the client as an error event", async () => {
    const res = await call(
      "messages",
      "txtB-sonnet-4-6",
      "[[fault:error-after=2]] [[len:30]] oops",
      true,
    );
    expect(res.frames.at(-1)?.event).toBe("error");
    const row = await rowOf(res.requestId);
    expect(row.estimated).toBe(true);
  });

  it("a chat client reads another family's in-stream error with the standard type of its status", async () => {
    // Anthropic's overloaded_error and Gemini's UNAVAILABLE both stand for 503; a non-stream 503
    // reads `service_unavailable` (docs/api-reference.md Errors), so the stream's error says so too.
    for (const model of ["txtB-sonnet-4-6", "txtC-2.5-pro"]) {
      const res = await call("chat", model, "[[fault:error-after=2]] [[len:30]] oops", true);
      const errors = res.frames
        .filter((f) => f.data !== "[DONE]")
        .map((f) => JSON.parse(f.data))
        .filter((chunk) => chunk.error !== undefined);
      expect(errors, model).toEqual([
        { error: { code: 503, message: expect.any(String), type: "service_unavailable" } },
      ]);
    }
  });

  it("a responses client reads it the same way, in its error and response.failed events", async () => {
    for (const model of ["txtB-sonnet-4-6", "txtC-2.5-pro"]) {
      const res = await call("responses", model, "[[fault:error-after=2]] [[len:30]] oops", true);
      const events = res.frames.map((f) => JSON.parse(f.data));
      const error = events.find((e) => e.type === "error");
      expect(error, model).toMatchObject({
        code: "service_unavailable",
        error: { type: "service_unavailable" },
      });
      const failed = events.find((e) => e.type === "response.failed");
      expect(failed.response.error, model).toMatchObject({ code: "service_unavailable" });
    }
  });
});

describe("bodies that are not what the protocol promises", () => {
  it("a stream answered with HTML or JSON (200): 502 before the first byte, nothing charged", async () => {
    for (const file of ["html.json", "reply.json"]) {
      for (const [format, model] of [
        ["chat", "txtA-5"],
        ["messages", "txtA-5"],
        ["native", "txtA-5"],
        ["responses", "txtA-5"],
      ] as const) {
        const res = await call(format, model, `[[replay:openai-chat/${file}]]`, true);
        expect(res.status, `${file} ${format}`).toBe(502);
        expect(res.frames, `${file} ${format}`).toEqual([]);
        expect(await rowOf(res.requestId)).toMatchObject({ status: 502, credits: 0 });
      }
    }
  });

  it("a stream answered with HTML falls back to the next channel", async () => {
    const res = await call("chat", "txtD-v3.2-exp", "[[replay:openai-chat/html.json]]", true);
    // The second channel (Anthropic) has no such recording under its folder's framing: it replays
    // the same body, so both fail; what matters is that the first did not commit.
    expect(attempts(res.requestId).slice(0, 1)).toEqual(["first:malformed"]);
  });

  it("a non-stream HTML body is a 502, nothing charged", async () => {
    const res = await call("chat", "txtA-5", "[[replay:openai-chat/html.json]]", false);
    expect(res.status).toBe(502);
    expect(res.json.error).toMatchObject({ code: 502, type: "bad_gateway" });
    expect(await rowOf(res.requestId)).toMatchObject({ status: 502, credits: 0 });
  });

  it("same-format chat: a frame cut short is not relayed; the stream ends with an error event", async () => {
    for (const extra of [{}, { stream_options: { include_usage: true } }]) {
      const res = await call(
        "chat",
        "txtA-5",
        "[[replay:openai-chat/cut.chunks.txt]]",
        true,
        extra,
      );
      expect(res.status).toBe(200);
      // Every frame the client reads is JSON (or [DONE]); the last one is the error.
      for (const frame of res.frames)
        if (frame.data !== "[DONE]") expect(() => JSON.parse(frame.data)).not.toThrow();
      expect(res.text).not.toContain('"content":"bra');
      expect(lastJson(res.frames).error).toMatchObject({ type: "bad_gateway" });
      const row = await rowOf(res.requestId);
      expect(row).toMatchObject({ status: 502, estimated: true });
    }
  });

  it("across formats: a frame cut short is reported in-stream", async () => {
    const res = await call("messages", "txtA-5", "[[replay:openai-chat/cut.chunks.txt]]", true);
    expect(res.status).toBe(200);
    expect(res.frames.some((f) => f.event === "error")).toBe(true);
  });

  it("duplicated events: relayed as sent on the fast path, translated once across, charged once", async () => {
    const same = await call("chat", "txtA-5", "[[replay:openai-chat/dup.chunks.txt]]", true);
    expect(READ_STREAM.chat(same.frames).text).toBe("twice twice ");
    expect(await rowOf(same.requestId)).toMatchObject({ promptTokens: 9, completionTokens: 4 });
    const across = await call(
      "chat",
      "txtB-sonnet-4-6",
      "[[replay:anthropic/dup.chunks.txt]]",
      true,
    );
    expect(across.status).toBe(200);
    expect(READ_STREAM.chat(across.frames).text).toBe("twice twice ");
    expect(across.frames.at(-1)?.data).toBe("[DONE]");
    // The repeated message_delta does not make the client read two finishes.
    const finishes = across.frames
      .filter((f) => f.data !== "[DONE]")
      .map((f) => JSON.parse(f.data))
      .filter((c) => c.choices?.[0]?.finish_reason);
    expect(finishes).toHaveLength(1);
    expect(await rowOf(across.requestId)).toMatchObject({ promptTokens: 9, completionTokens: 4 });
  });

  it("a stream without usage, or with partial usage: charged an estimate, flagged", async () => {
    for (const file of ["no-usage.chunks.txt", "partial-usage.chunks.txt"]) {
      const res = await call("chat", "txtA-5", `[[replay:openai-chat/${file}]]`, true);
      expect(res.status).toBe(200);
      const row = await rowOf(res.requestId);
      expect(row.estimated, file).toBe(true);
      expect(row.completionTokens, file).toBeGreaterThan(0);
    }
  });

  it("nonsense usage (negative counts) in a stream is charged an estimate, flagged, never zero", async () => {
    const cases: [ClientFormat, string, string][] = [
      ["messages", "txtB-sonnet-4-6", "anthropic"],
      ["chat", "txtB-sonnet-4-6", "anthropic"],
      ["native", "txtC-2.5-pro", "gemini"],
      ["chat", "txtC-2.5-pro", "gemini"],
    ];
    for (const [format, model, folder] of cases) {
      const res = await call(format, model, `[[replay:${folder}/nonsense-usage.chunks.txt]]`, true);
      const what = `${format} -> ${folder}`;
      expect(res.status, what).toBe(200);
      const row = await rowOf(res.requestId);
      expect(row.estimated, what).toBe(true);
      expect(row.promptTokens, what).toBeGreaterThan(0);
      // The 40 delivered characters, at four a token.
      expect(row.completionTokens, what).toBeGreaterThanOrEqual(10);
      expect(row.credits, what).toBeGreaterThan(0);
    }
  });

  it("absurd usage (1e12 output tokens for max_tokens 10) is charged at most the call's hold", async () => {
    const res = await call("chat", "txtA-5", "[[replay:openai-chat/absurd.chunks.txt]]", true, {
      max_tokens: 10,
    });
    expect(res.status).toBe(200);
    const row = await rowOf(res.requestId);
    // The hold: a short prompt's bound (a few hundred tokens at 0.625) plus 10 output tokens at 5.
    expect(row.credits).toBeLessThan(1000);
  });
});

describe("money after all of the above", () => {
  it("the token was charged exactly the sum of its usage rows, and nothing stays held", async () => {
    await stack.gateway.services.accounting!.flush();
    const page = await stack.gateway.services.store.queryLogs(
      { userId: "alice" },
      { offset: 0, limit: 10_000 },
    );
    const token = await tokenRow(stack, KEY);
    const sum = page.items
      .filter((r) => r.tokenName === "faults")
      .reduce((s, r) => s + r.credits, 0);
    expect(token.used).toBe(sum);
    expect(token.reserved).toBe(0);
  });
});
