import type { SseMessage, StreamEvent } from "@interlingua/core-types";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ChatStreamDecoder } from "./parse-chat-stream.js";

/** A content chunk as OpenAI writes it; each optional field present or not. */
const chunk = fc.record({
  content: fc.string({ unit: "binary", maxLength: 12 }),
  // OpenAI's delta, or DeepSeek's, which names both fields, the one not streamed null.
  form: fc.constantFrom("openai", "deepseek-answer", "deepseek-reasoning"),
  index: fc.integer({ min: 0, max: 2 }),
  tier: fc.boolean(),
  fingerprint: fc.constantFrom("fp_de604bd877", null, undefined),
  logprobs: fc.boolean(),
  usage: fc.boolean(),
  obfuscation: fc.option(fc.string({ unit: "grapheme-ascii", maxLength: 8 }), { nil: undefined }),
});

type ChunkCase = typeof chunk extends fc.Arbitrary<infer T> ? T : never;

const wire = (c: ChunkCase) => ({
  id: "chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0",
  object: "chat.completion.chunk",
  created: 1_770_933_892,
  model: "gpt-4.1-nano-2025-04-14",
  ...(c.tier ? { service_tier: "default" } : {}),
  ...(c.fingerprint === undefined ? {} : { system_fingerprint: c.fingerprint }),
  choices: [
    {
      index: c.index,
      delta:
        c.form === "openai"
          ? { content: c.content }
          : c.form === "deepseek-answer"
            ? { content: c.content, reasoning_content: null }
            : { content: null, reasoning_content: c.content },
      ...(c.logprobs ? { logprobs: null } : {}),
      finish_reason: null,
    },
  ],
  ...(c.usage ? { usage: null } : {}),
  ...(c.obfuscation === undefined ? {} : { obfuscation: c.obfuscation }),
});

const START = JSON.stringify({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
});
const FINISH = JSON.stringify({
  id: "chatcmpl-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "m",
  choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
});

function decode(datas: string[]): StreamEvent[] {
  const decoder = new ChatStreamDecoder();
  const events: StreamEvent[] = [];
  const emit = (event: StreamEvent) => void events.push(event);
  for (const data of datas) decoder.push({ data } satisfies SseMessage, emit);
  decoder.end(emit);
  return events;
}

afterEach(() => vi.restoreAllMocks());

describe("compact content chunks", () => {
  it("decode as the general path does, without parsing the whole chunk", () => {
    fc.assert(
      fc.property(fc.array(chunk, { maxLength: 8 }), (chunks) => {
        const objects = chunks.map(wire);
        // Spaced out, a chunk no longer has the compact form: the general path reads it.
        const general = decode([START, ...objects.map((o) => JSON.stringify(o, null, 1)), FINISH]);
        const parse = vi.spyOn(JSON, "parse");
        const compact = decode([START, ...objects.map((o) => JSON.stringify(o)), FINISH]);
        const wholeChunks = parse.mock.calls.filter(([text]) => String(text).startsWith("{"));
        parse.mockRestore();
        expect(compact).toEqual(general);
        // Only the first and the finish chunk were parsed whole.
        expect(wholeChunks).toHaveLength(2);
      }),
    );
  });

  it("leave every other form to the general path", () => {
    const parse = vi.spyOn(JSON, "parse");
    const base = wire({
      content: "hi",
      form: "openai",
      index: 0,
      tier: true,
      fingerprint: null,
      logprobs: true,
      usage: true,
      obfuscation: "x",
    });
    const variants = [
      { ...base, choices: [{ ...base.choices[0], finish_reason: "stop" }] },
      { ...base, usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } },
      { ...base, choices: [{ ...base.choices[0], delta: { content: "hi", role: "assistant" } }] },
      { ...base, x_groq: { id: "x" } },
      { ...base, created: "1" },
    ];
    const events = decode([START, ...variants.map((v) => JSON.stringify(v))]);
    expect(parse.mock.calls.filter(([text]) => String(text).startsWith("{"))).toHaveLength(6);
    expect(events.filter((e) => e.type === "finish")).toHaveLength(1);
    expect(events.filter((e) => e.type === "usage")).toHaveLength(1);
  });
});
