import { describe, expect, it } from "vitest";
import type { PushTransformer, SseMessage } from "./codec.js";
import { findIncompleteToolCall, guardToolArguments } from "./guard-tool-arguments.js";
import type { StreamEvent } from "./stream-event.js";

/** A decoder that emits the events carried in each message, as JSON. */
const replay: PushTransformer<SseMessage, StreamEvent> = {
  push: (message, emit) => {
    for (const event of JSON.parse(message.data) as StreamEvent[]) emit(event);
  },
  end: () => {},
};

function run(events: StreamEvent[]): StreamEvent[] {
  const guard = guardToolArguments(replay);
  const out: StreamEvent[] = [];
  guard.push({ data: JSON.stringify(events) }, (e) => out.push(e));
  guard.end((e) => out.push(e));
  return out;
}

const start: StreamEvent = { type: "tool-call-start", index: 0, id: "c", name: "f" };
const usage: StreamEvent = {
  type: "usage",
  usage: {
    inputTokens: 1,
    outputTokens: 1,
    cachedInputTokens: 0,
    cacheWriteTokens: 0,
    thinkingTokens: 0,
  },
};

describe("guardToolArguments", () => {
  it("passes complete calls unchanged", () => {
    const events: StreamEvent[] = [
      start,
      { type: "tool-arguments-delta", index: 0, delta: '{"a":' },
      { type: "tool-arguments-delta", index: 0, delta: "1}" },
      { type: "part-end", index: 0 },
    ];
    expect(run(events)).toStrictEqual(events);
  });

  it("gives a call without arguments {}", () => {
    expect(run([start, { type: "part-end", index: 0 }])).toStrictEqual([
      start,
      { type: "tool-arguments-delta", index: 0, delta: "{}" },
      { type: "part-end", index: 0 },
    ]);
  });

  it("ends the stream with an error at a call that ends half-JSON; only usage follows", () => {
    const out = run([
      start,
      { type: "tool-arguments-delta", index: 0, delta: '{"a":' },
      { type: "part-end", index: 0 },
      { type: "text-delta", index: 1, delta: "more" },
      usage,
    ]);
    expect(out.map((e) => e.type)).toEqual([
      "tool-call-start",
      "tool-arguments-delta",
      "error",
      "usage",
    ]);
  });

  it("checks calls never ended when the stream ends", () => {
    const out = run([start, { type: "tool-arguments-delta", index: 0, delta: "[" }]);
    expect(out.at(-1)?.type).toBe("error");
  });
});

describe("findIncompleteToolCall (issue 26, item 2)", () => {
  const reply = (args: string) => ({
    id: "r",
    model: "m",
    created: 0,
    message: {
      role: "assistant" as const,
      parts: [
        { type: "text" as const, text: "x" },
        { type: "tool-call" as const, id: "c", name: "f", arguments: args },
      ],
    },
    finishReason: { unified: "length" as const, raw: "length" },
    usage: usage.type === "usage" ? usage.usage : (undefined as never),
    warnings: [],
  });
  it("finds a call whose arguments a max-tokens stop cut, by its part index", () => {
    expect(findIncompleteToolCall(reply('{"city":"Par') as never)).toBe(1);
  });
  it("complete or empty arguments are fine", () => {
    expect(findIncompleteToolCall(reply('{"city":"Paris"}') as never)).toBeUndefined();
    expect(findIncompleteToolCall(reply("") as never)).toBeUndefined();
  });
});
