import type { StreamEvent } from "@interlingua/core-types";
import { chat } from "@interlingua/fmt-chat";
import { messages } from "@interlingua/fmt-messages";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PLAIN_CHUNK, type PlainChunkTest } from "./plain-chunk.ts";
import { PLAIN_DELTA } from "./plain-delta.ts";

const chatChunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: [choice],
    usage: null,
    ...extra,
  });

/** Compact JSON, as providers write it, or with a space after every colon and comma. */
const json = (value: unknown, spaced: boolean) =>
  spaced ? JSON.stringify(value, null, 1).replace(/\n */g, " ") : JSON.stringify(value);

/** The frames that lie wholly before the first key the chunk test calls needed. */
function plainRun<F extends { data: string }>(frames: F[], test: PlainChunkTest): F[] {
  const texts = frames.map((f) => `data: ${f.data}\n\n`);
  const bytes = Buffer.from(texts.join(""));
  const need = test.scan(bytes.toString("latin1"))(0);
  const run: F[] = [];
  let end = 0;
  for (const [i, frame] of frames.entries()) {
    end += Buffer.byteLength(texts[i]!);
    if (end > need) break;
    run.push(frame);
  }
  return run;
}

/** What the tap needs from a frame: anything but generated text and part boundaries. */
const needed = (events: StreamEvent[]) =>
  events.filter((e) => ["usage", "finish", "error", "prompt-feedback"].includes(e.type));

/**
 * Neither of the tap's two tests lets by what it needs: a frame called a plain delta, and the run
 * of frames before the first needed key, decode to nothing but text and part boundaries.
 */
function neverSkipsWhatIsNeeded(format: "chat" | "messages", values: unknown[], spaced: boolean) {
  const codec = format === "chat" ? chat : messages;
  const decoded = (list: { data: string }[]) => {
    const events: StreamEvent[] = [];
    const decoder = codec.stream.decoder();
    for (const message of list) decoder.push(message, (e) => events.push(e));
    return needed(events);
  };
  const frames = values.map((value) => ({ data: json(value, spaced) }));
  for (const frame of frames) if (PLAIN_DELTA[format]!(frame)) expect(decoded([frame])).toEqual([]);
  expect(decoded(plainRun(frames, PLAIN_CHUNK[format]!))).toEqual([]);
}

describe("plain content deltas", () => {
  it("chat: text, reasoning and argument deltas are plain; finish, usage and errors are not", () => {
    const plain = PLAIN_DELTA.chat!;
    const delta = (d: Record<string, unknown>) => ({ index: 0, delta: d, finish_reason: null });
    expect(plain({ data: chatChunk(delta({ content: "hi" })) })).toBe(true);
    expect(plain({ data: chatChunk(delta({ reasoning_content: "hm" })) })).toBe(true);
    expect(plain({ data: chatChunk(delta({ content: 'say "usage":{} or "error"' })) })).toBe(true);
    expect(plain({ data: chatChunk({ index: 0, delta: {}, finish_reason: "stop" }) })).toBe(false);
    expect(
      plain({ data: chatChunk(delta({ content: "x" }), { usage: { total_tokens: 3 } }) }),
    ).toBe(false);
    expect(plain({ data: JSON.stringify({ choices: [], usage: { prompt_tokens: 1 } }) })).toBe(
      false,
    );
    expect(plain({ data: JSON.stringify({ error: { message: "x" } }) })).toBe(false);
    expect(plain({ data: chatChunk(delta({ content: "x" }), { x_groq: { usage: {} } }) })).toBe(
      false,
    );
    // Two choices, one finishing: not plain.
    const two = JSON.stringify({
      choices: [delta({ content: "a" }), { index: 1, delta: {}, finish_reason: "length" }],
    });
    expect(plain({ data: two })).toBe(false);
    // A provider that writes spaces is simply decoded.
    expect(plain({ data: '{"choices":[{"delta":{"content":"a"},"finish_reason": null}]}' })).toBe(
      false,
    );
  });

  it("messages: only content_block_delta frames are plain", () => {
    const plain = PLAIN_DELTA.messages!;
    expect(
      plain({
        event: "content_block_delta",
        data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}',
      }),
    ).toBe(true);
    for (const data of [
      '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}',
      '{"type":"message_start","message":{"usage":{"input_tokens":3}}}',
      '{"type":"error","error":{"type":"overloaded_error","message":"x"}}',
      '{"type":"content_block_stop","index":0}',
    ]) {
      expect(plain({ data })).toBe(false);
    }
  });

  it("a frame called plain never carries what the tap needs, for any chat chunk", () => {
    const chunk = fc.record(
      {
        choices: fc.array(
          fc.record(
            {
              index: fc.nat(3),
              delta: fc.record(
                { content: fc.string(), reasoning_content: fc.string() },
                { requiredKeys: [] },
              ),
              finish_reason: fc.constantFrom(null, "stop", "length", "tool_calls"),
            },
            { requiredKeys: ["index", "delta"] },
          ),
          { maxLength: 2 },
        ),
        usage: fc.option(
          fc.record({
            prompt_tokens: fc.nat(),
            completion_tokens: fc.nat(),
            total_tokens: fc.nat(),
          }),
        ),
        error: fc.record({ message: fc.string() }),
      },
      { requiredKeys: ["choices"] },
    );
    fc.assert(
      fc.property(fc.array(chunk, { minLength: 1, maxLength: 3 }), fc.boolean(), (values, spaced) =>
        neverSkipsWhatIsNeeded("chat", values, spaced),
      ),
    );
  });

  it("a frame called plain never carries what the tap needs, for any Anthropic frame", () => {
    const frame = fc.oneof(
      fc.record({
        type: fc.constant("content_block_delta"),
        index: fc.nat(3),
        delta: fc.record({ type: fc.constant("text_delta"), text: fc.string() }),
      }),
      fc.record({
        type: fc.constant("message_delta"),
        delta: fc.record({ stop_reason: fc.constantFrom("end_turn", "max_tokens") }),
        usage: fc.record({ output_tokens: fc.nat() }),
      }),
      fc.record({
        type: fc.constant("error"),
        error: fc.record({ type: fc.constant("api_error"), message: fc.string() }),
      }),
    );
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 3 }), fc.boolean(), (values, spaced) =>
        neverSkipsWhatIsNeeded("messages", values, spaced),
      ),
    );
  });
});
